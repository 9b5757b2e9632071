/**
 * HyperLogLog distinct counting (Flajolet et al. 2007) with 2^12 registers: a relative standard error of
 * 1.04 / sqrt(4096) ≈ 1.6 %, and linear counting below 2.5 × registers, where it is more exact. Registers
 * merge by maximum, so the sketches of a table's chunks merge into the sketch of the whole table.
 */
export const HLL_PRECISION = 12;
const REGISTERS = 1 << HLL_PRECISION;
/** The sketch's relative standard error, stated in the report. */
export const HLL_STANDARD_ERROR = 1.04 / Math.sqrt(REGISTERS);

const float = new Float64Array(1);
const words = new Uint32Array(float.buffer);

/** MurmurHash3's finaliser: spreads every input bit over the 32 bits the registers are cut from. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a cell: strings by FNV-1a, numbers by their IEEE bits, each finalised. */
export function hashCell(value: unknown): number {
  if (typeof value === 'number') {
    float[0] = value;
    return fmix(words[0] ^ Math.imul(words[1], 0x9e3779b1));
  }
  const text = typeof value === 'string' ? value : String(value);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return fmix(h);
}

export class HyperLogLog {
  constructor(readonly registers = new Uint8Array(REGISTERS)) {}

  add(value: unknown): void {
    this.addHash(hashCell(value));
  }

  addNumber(value: number): void {
    float[0] = value;
    this.addHash(fmix(words[0] ^ Math.imul(words[1], 0x9e3779b1)));
  }

  /**
   * The first `count` numbers of `values`, each hashed as addNumber hashes it, read as words of the array's own
   * buffer rather than copied one by one through a scratch array.
   */
  addNumbers(values: Float64Array, count: number): void {
    const bits = new Uint32Array(values.buffer, values.byteOffset, count * 2);
    for (let i = 0; i < count * 2; i += 2) this.addHash(fmix(bits[i] ^ Math.imul(bits[i + 1], 0x9e3779b1)));
  }

  private addHash(hash: number): void {
    const index = hash >>> (32 - HLL_PRECISION);
    // The rank of the first set bit of the remaining 20 bits (21 when none is set).
    const rest = (hash << HLL_PRECISION) | (1 << (HLL_PRECISION - 1));
    const rank = Math.clz32(rest) + 1;
    if (rank > this.registers[index]) this.registers[index] = rank;
  }

  merge(other: Uint8Array): void {
    for (let i = 0; i < REGISTERS; i++) if (other[i] > this.registers[i]) this.registers[i] = other[i];
  }

  estimate(): number {
    let sum = 0;
    let zeros = 0;
    for (let i = 0; i < REGISTERS; i++) {
      sum += 2 ** -this.registers[i];
      if (this.registers[i] === 0) zeros++;
    }
    const alpha = 0.7213 / (1 + 1.079 / REGISTERS);
    const raw = (alpha * REGISTERS * REGISTERS) / sum;
    if (raw <= 2.5 * REGISTERS && zeros > 0) return Math.round(REGISTERS * Math.log(REGISTERS / zeros));
    return Math.round(raw);
  }
}
