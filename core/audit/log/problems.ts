import { defineProblem } from '../../problems.js';

/** What the audit log's operations answer beyond the problems every operation can. */
export const AuditLogProblems = {
  treeSizeExceeded: defineProblem({
    slug: 'tree-size-exceeded',
    title: 'Bad Request',
    status: 400,
    description:
      'The proof asks for a tree larger than the audit log holds: `tree_size` gives the size it holds now. ' +
      'Ask for the size of a checkpoint (GET /v1/audit/checkpoint gives the latest).',
  }),
  notInTree: defineProblem({
    slug: 'not-in-tree',
    title: 'Not Found',
    status: 404,
    description:
      'The event at this position is not in the tree of the size asked for: it was logged after that ' +
      'checkpoint, or is not integrated yet. Ask again with the size of a later checkpoint.',
  }),
  checkpointPending: defineProblem({
    slug: 'checkpoint-pending',
    title: 'Service Unavailable',
    status: 503,
    description:
      "No signed checkpoint covers the account's latest events yet (one is signed every few seconds while " +
      'events arrive). Retry after `Retry-After` seconds.',
  }),
};
