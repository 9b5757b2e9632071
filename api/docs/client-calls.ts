/**
 * How the typed client (`@finsynth/client`, clients/typescript) calls each operation: the surface its
 * README promises, by operation id. An operation it has no method for is shown through `finsynth.raw`, the
 * client's typed openapi-fetch client, which reaches every path of the document.
 */

/** The example request a client call is written from. */
export interface CallArguments {
  /** Path parameters by name. */
  params: Record<string, string>;
  /** The query parameters the example sends, or undefined when it sends none. */
  query: Record<string, unknown> | undefined;
  /** The JSON body, or undefined when the operation has none. */
  body: unknown;
}

/** TypeScript source to write as it is, among the values of a call's arguments. */
export class Source {
  constructor(readonly text: string) {}
}

export interface ClientCall {
  /** `namespace.method` on a `Finsynth` instance. */
  method: string;
  /** The arguments: values written as literals, or `Source`. */
  args(request: CallArguments): unknown[];
  /** What the call answers is named so; a list (an async iterator over every page) names its items; null: nothing. */
  result: { name: string } | { item: string } | null;
}

const bodyOf = (request: CallArguments) => (request.body === undefined ? [] : [request.body]);
const queryOf = (request: CallArguments) => (request.query === undefined ? [] : [request.query]);
const idOf = (request: CallArguments) => [request.params.id!];

export const CLIENT_CALLS: Record<string, ClientCall> = {
  generateQuick: { method: 'generate.quick', args: bodyOf, result: { name: 'dataset' } },

  getCatalog: { method: 'catalog.list', args: () => [], result: { name: 'catalog' } },
  getSector: { method: 'catalog.sector', args: ({ params }) => [params.sector!], result: { name: 'sector' } },
  getTableSchema: {
    method: 'catalog.table',
    args: ({ params }) => [params.sector!, params.table!],
    result: { name: 'table' },
  },
  listDataTypes: { method: 'catalog.types', args: () => [], result: { name: 'types' } },

  createJob: { method: 'jobs.create', args: bodyOf, result: { name: 'job' } },
  listJobs: { method: 'jobs.list', args: queryOf, result: { item: 'job' } },
  getJob: { method: 'jobs.retrieve', args: idOf, result: { name: 'job' } },
  cancelJob: { method: 'jobs.cancel', args: idOf, result: { name: 'job' } },
  listJobResults: { method: 'jobs.results', args: idOf, result: { name: 'results' } },
  downloadJobResult: {
    method: 'jobs.download',
    args: ({ params }) => [params.id!, params.table!, { to: `./${params.table!}.csv.gz` }],
    result: null,
  },

  getConfigSchema: { method: 'configs.schema', args: () => [], result: { name: 'schema' } },
  submitRawConfig: { method: 'configs.raw', args: () => [new Source('yaml')], result: { name: 'answer' } },
  validateConfig: { method: 'configs.validate', args: bodyOf, result: { name: 'validation' } },
  estimateConfig: { method: 'configs.estimate', args: bodyOf, result: { name: 'estimate' } },
  composeConfig: { method: 'configs.compose', args: bodyOf, result: { name: 'composed' } },
  saveConfig: { method: 'configs.create', args: bodyOf, result: { name: 'saved' } },
  listConfigs: { method: 'configs.list', args: queryOf, result: { item: 'saved' } },
  getConfig: { method: 'configs.retrieve', args: idOf, result: { name: 'saved' } },
  updateConfig: {
    method: 'configs.update',
    args: (request) => [...idOf(request), request.body],
    result: { name: 'saved' },
  },
  deleteConfig: { method: 'configs.delete', args: idOf, result: { name: 'deleted' } },
  saveOverlay: { method: 'overlays.create', args: bodyOf, result: { name: 'overlay' } },
  listOverlays: { method: 'overlays.list', args: queryOf, result: { item: 'overlay' } },
  getOverlay: { method: 'overlays.retrieve', args: idOf, result: { name: 'overlay' } },
  updateOverlay: {
    method: 'overlays.update',
    args: (request) => [...idOf(request), request.body],
    result: { name: 'overlay' },
  },
  deleteOverlay: { method: 'overlays.delete', args: idOf, result: { name: 'deleted' } },

  getUsage: { method: 'usage.summary', args: queryOf, result: { name: 'usage' } },
  listUsageRecords: { method: 'usage.records', args: queryOf, result: { item: 'record' } },

  getSubscription: { method: 'billing.subscription', args: () => [], result: { name: 'subscription' } },
  changeTier: {
    method: 'billing.changeTier',
    args: ({ body }) => [typeof body === 'object' && body !== null && 'tier' in body ? body.tier : body],
    result: { name: 'change' },
  },
  setPaymentMethod: { method: 'billing.setPaymentMethod', args: bodyOf, result: { name: 'subscription' } },
  getCredits: { method: 'billing.credits', args: () => [], result: { name: 'credits' } },
  purchaseCredits: { method: 'billing.purchase', args: bodyOf, result: { name: 'purchase' } },
  listBillingHistory: { method: 'billing.history', args: queryOf, result: { item: 'entry' } },

  issueKey: { method: 'keys.create', args: bodyOf, result: { name: 'key' } },
  listKeys: { method: 'keys.list', args: queryOf, result: { item: 'key' } },
  revokeKey: { method: 'keys.revoke', args: idOf, result: { name: 'key' } },

  auditCredits: { method: 'audit.credits', args: queryOf, result: { name: 'audit' } },

  createWebhook: { method: 'webhooks.create', args: bodyOf, result: { name: 'endpoint' } },
  listWebhooks: { method: 'webhooks.list', args: queryOf, result: { item: 'endpoint' } },
  getWebhook: { method: 'webhooks.retrieve', args: idOf, result: { name: 'endpoint' } },
  deleteWebhook: { method: 'webhooks.delete', args: idOf, result: { name: 'deleted' } },
  listWebhookDeliveries: { method: 'webhooks.deliveries', args: idOf, result: { item: 'delivery' } },
};
