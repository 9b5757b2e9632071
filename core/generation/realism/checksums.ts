/** Check-digit algorithms shared by the identifiers (IBAN, PAN, ISIN, national BBAN checks). */

/** Remainder of a long decimal string modulo 97, in pieces small enough for exact float arithmetic. */
export function mod97(digits: string): number {
  let remainder = 0;
  for (let i = 0; i < digits.length; i += 7) {
    remainder = Number(`${remainder}${digits.slice(i, i + 7)}`) % 97;
  }
  return remainder;
}

/** Letters as numbers the ISO 7064 way (A = 10 … Z = 35), digits unchanged. */
export function lettersToDigits(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out += code >= 65 ? String(code - 55) : text[i];
  }
  return out;
}

/** The Luhn check digit that makes `payload + digit` pass the Luhn test. */
export function luhnCheckDigit(payload: string): number {
  let sum = 0;
  let double = true;
  for (let i = payload.length - 1; i >= 0; i--) {
    let digit = payload.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return (10 - (sum % 10)) % 10;
}

export function luhnValid(number: string): boolean {
  return /^\d+$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === Number(number[number.length - 1]);
}
