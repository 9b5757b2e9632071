export {
  Finsynth,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type FinsynthOptions,
} from './finsynth.js';
export {
  FinsynthError,
  InvalidRequestError,
  AuthenticationError,
  InsufficientCreditsError,
  PermissionError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  ServerError,
  FinsynthConnectionError,
  FinsynthTimeoutError,
  type Problem,
  type ProblemFieldError,
} from './errors.js';
export type { RequestOptions } from './requester.js';
export { PageList, type Page } from './pagination/page-list.js';
export type { FetchLike, RetryPolicy } from './transport/retrying-fetch.js';
export {
  verifyWebhook,
  WebhookSignatureError,
  type WebhookEvent,
  type VerifyWebhookOptions,
} from './webhooks/verify-webhook.js';
export type {
  WebhookEventType,
  WebhookEndpoint,
  CreatedWebhookEndpoint,
  WebhookEndpointInput,
  WebhookDelivery,
} from './webhooks/webhook-types.js';
export {
  TERMINAL_JOB_STATES,
  type Job,
  type JobState,
  type CreateJobBody,
  type JobReport,
  type WaitOptions,
} from './resources/jobs.js';
export type { DownloadOptions, DownloadResult } from './jobs/download-result.js';
export type { QuickRequest, QuickResult } from './resources/generate.js';
export type { ConfigCheckBody, SaveConfigBody, UpdateConfigBody, ComposeBody } from './resources/configs.js';
export type { SaveOverlayBody, UpdateOverlayBody } from './resources/overlays.js';
export type { Tier, PurchaseBody, PaymentMethodBody } from './resources/billing.js';
export type { KeyInput } from './resources/keys.js';
export type { paths, components, operations } from './schema.js';
export type { Paths, RawClient } from './paths.js';
