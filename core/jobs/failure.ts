import { JobProblems } from './problems.js';
import type { StoredProblem } from './events.js';
import type { ProblemType } from '../problems.js';

/** Error codes of the file system that mean "the result could not be written", not "the generator broke". */
const WRITE_ERRORS = new Set([
  'ENOSPC',
  'EDQUOT',
  'EIO',
  'EROFS',
  'EACCES',
  'EPERM',
  'EFBIG',
  'ENOTDIR',
  'EISDIR',
  'EMFILE',
]);

/**
 * The problem a failed job shows its client: what went wrong and with which table, never a stack trace.
 * Always one of the job's own slugs: the pool's `generation-failed` (whose detail names the pack, table
 * and chunk) becomes `job-generation-failed`, which also says that the reserved credits were released.
 */
export function failureProblem(error: unknown, table: string | null): StoredProblem {
  const where = table === null ? '' : ` (table ${table})`;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code && WRITE_ERRORS.has(code)) {
    const reason = code === 'ENOSPC' || code === 'EDQUOT' ? 'the results volume is full' : `a write error (${code})`;
    return stored(
      JobProblems.writeFailed,
      `the result file could not be written${where}: ${reason}; partial files were removed and the reserved ` +
        'credits released',
    );
  }
  return stored(JobProblems.generationFailed, `generation failed${where}: ${message}`);
}

function stored(type: ProblemType, detail: string): StoredProblem {
  return { slug: type.slug, title: type.title, status: type.status, detail };
}
