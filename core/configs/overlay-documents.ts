import { overlaySchema } from './overlay-schema.js';
import { documentModel } from './document-decider.js';

/**
 * Overlay layers: streams `overlay-<id>`, events OverlaySaved, OverlayUpdated, OverlayDeleted.
 * Content: a partial config.
 */
export const savedOverlays = documentModel({
  noun: 'Overlay',
  idPrefix: 'ovl',
  streamPrefix: 'overlay',
  contentSchema: overlaySchema,
});
export const overlayEvents = savedOverlays.events;
