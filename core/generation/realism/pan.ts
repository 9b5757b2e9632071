import type { Rng } from '../random/prng.js';
import { cardNetworkByName, type CardNetwork } from '../reference-data/card-networks.js';
import { luhnCheckDigit, luhnValid } from './checksums.js';

/** Card numbers (ISO/IEC 7812): an IIN in the network's ranges, the network's length, a Luhn check digit. */
export function drawPan(rng: Rng, network: CardNetwork): string {
  const [first, last] = rng.pick(network.iin_ranges);
  const prefix = String(rng.int(Number(first), Number(last)));
  const length = rng.pick(network.lengths);
  const payload = prefix + rng.digits(length - prefix.length - 1);
  return payload + luhnCheckDigit(payload);
}

/** The network whose IIN ranges and lengths the number fits, or null. */
export function panNetwork(pan: string): CardNetwork['name'] | null {
  for (const network of cardNetworkByName.values()) {
    if (!network.lengths.includes(pan.length)) continue;
    for (const [first, last] of network.iin_ranges) {
      const prefix = Number(pan.slice(0, first.length));
      if (prefix >= Number(first) && prefix <= Number(last)) return network.name;
    }
  }
  return null;
}

export function validatePan(pan: string, network?: CardNetwork['name']): boolean {
  if (!luhnValid(pan)) return false;
  const matched = panNetwork(pan);
  return network ? matched === network : matched !== null;
}
