import { packCatalog } from '../../core/configs/packs-catalog.js';
import cards from '../../plugins/cards/index.js';

/** The config rules are tested against the real cards pack, through the same adapter the service uses. */
export const fixtureCatalog = packCatalog([cards]);
