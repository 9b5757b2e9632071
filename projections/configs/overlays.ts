import { documentsProjection } from './configs-documents.js';

/** Overlay layers by id and by owner (GET /v1/overlays). */
export const OVERLAYS_PROJECTION = 'overlays';
export const overlaysProjection = documentsProjection(OVERLAYS_PROJECTION, 'Overlay');
