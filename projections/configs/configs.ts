import { documentsProjection } from './configs-documents.js';

/** Saved configs by id and by owner (GET /v1/configs). */
export const CONFIGS_PROJECTION = 'configs';
export const configsProjection = documentsProjection(CONFIGS_PROJECTION, 'Config');
