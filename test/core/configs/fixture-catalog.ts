import { packCatalog } from '../../../core/catalog/packs-for-configs.js';
import { PackRegistry } from '../../../core/packs/registry.js';
import cards from '../../../plugins/cards/index.js';

/** The config rules are tested against the real cards pack, through the same adapter the service uses. */
export const fixtureCatalog = packCatalog(
  new PackRegistry([{ definition: cards, module_url: '', source: 'builtin:cards' }]),
);
