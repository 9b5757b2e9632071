/**
 * ISO 8601 formatting of UTC instants and dates by integer arithmetic: `Date.prototype.toISOString` costs
 * more than generating the rest of a row (see docs/performance.md). Gives the same text (years 0000–9999).
 */
const DAY_MS = 86_400_000;

const pad2 = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const pad3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** Dates already formatted, direct-mapped by day number: rows of one chunk span a few hundred days. */
const DATE_CACHE_SIZE = 4096;
const cachedDays = new Float64Array(DATE_CACHE_SIZE).fill(NaN);
const cachedDates: string[] = new Array(DATE_CACHE_SIZE);

/** YYYY-MM-DD of a day number (days since 1970-01-01), by Howard Hinnant's civil-from-days. */
export function isoDateOfDay(day: number): string {
  const slot = day & (DATE_CACHE_SIZE - 1);
  if (cachedDays[slot] === day) return cachedDates[slot];
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const date = `${String(y).padStart(4, '0')}-${pad2[m]}-${pad2[d]}`;
  cachedDays[slot] = day;
  cachedDates[slot] = date;
  return date;
}

/** YYYY-MM-DD of an instant in milliseconds since the epoch. */
export function isoDate(ms: number): string {
  return isoDateOfDay(Math.floor(ms / DAY_MS));
}

/**
 * "THH:MM:SS" of each second of the day, filled as seconds occur (at most 86,400 short strings, about
 * 4 MB), and ".mmmZ" of each millisecond. A timestamp is then three cached pieces joined by two
 * concatenations: the writer flattens every string it copies, and flattening a rope of eight parts would
 * cost more than the arithmetic.
 */
const timeOfSecond: string[] = new Array(86_400);
const millisZ = Array.from({ length: 1000 }, (_, i) => `.${pad3[i]}Z`);

function timeOfDay(second: number): string {
  const hours = Math.floor(second / 3600);
  const minutes = Math.floor((second - hours * 3600) / 60);
  return (timeOfSecond[second] = `T${pad2[hours]}:${pad2[minutes]}:${pad2[second - hours * 3600 - minutes * 60]}`);
}

/** YYYY-MM-DDTHH:MM:SS.mmmZ of an instant in milliseconds since the epoch (fractions of a ms dropped). */
export function isoTimestamp(ms: number): string {
  const whole = Math.floor(ms);
  const day = Math.floor(whole / DAY_MS);
  const rest = whole - day * DAY_MS;
  const second = Math.floor(rest / 1000);
  return isoDateOfDay(day) + (timeOfSecond[second] ?? timeOfDay(second)) + millisZ[rest - second * 1000];
}

/** A number with exactly `digits` decimals (0–4), like toFixed but without its cost; falls back for huge values. */
export function formatFixed(value: number, digits: number): string {
  const factor = POW10[digits];
  const scaled = Math.round(Math.abs(value) * factor);
  if (digits > 4 || scaled > Number.MAX_SAFE_INTEGER) return value.toFixed(digits);
  const sign = value < 0 && scaled !== 0 ? '-' : '';
  if (digits === 0) return sign + scaled;
  const whole = Math.floor(scaled / factor);
  const fraction = String(scaled - whole * factor).padStart(digits, '0');
  return `${sign}${whole}.${fraction}`;
}

const POW10 = [1, 10, 100, 1000, 10000];
