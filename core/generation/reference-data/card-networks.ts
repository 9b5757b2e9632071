/**
 * Card networks with their issuer identification number (IIN) ranges and PAN lengths, from the
 * networks' published ranges (ISO/IEC 7812). A range is [first, last] over prefixes of equal length;
 * `share` is the network's rough share of cards in circulation in Europe and North America.
 */
export interface CardNetwork {
  name: 'visa' | 'mastercard' | 'amex' | 'discover' | 'jcb' | 'unionpay';
  display_name: string;
  iin_ranges: readonly (readonly [string, string])[];
  lengths: readonly number[];
  share: number;
}

export const cardNetworks: readonly CardNetwork[] = [
  { name: 'visa', display_name: 'Visa', iin_ranges: [['4', '4']], lengths: [16], share: 55 },
  {
    name: 'mastercard',
    display_name: 'Mastercard',
    iin_ranges: [
      ['51', '55'],
      ['2221', '2720'],
    ],
    lengths: [16],
    share: 32,
  },
  {
    name: 'amex',
    display_name: 'American Express',
    iin_ranges: [
      ['34', '34'],
      ['37', '37'],
    ],
    lengths: [15],
    share: 8,
  },
  {
    name: 'discover',
    display_name: 'Discover',
    iin_ranges: [
      ['6011', '6011'],
      ['644', '649'],
      ['65', '65'],
    ],
    lengths: [16],
    share: 3,
  },
  { name: 'jcb', display_name: 'JCB', iin_ranges: [['3528', '3589']], lengths: [16], share: 1 },
  { name: 'unionpay', display_name: 'UnionPay', iin_ranges: [['62', '62']], lengths: [16], share: 1 },
];

export const cardNetworkByName: ReadonlyMap<string, CardNetwork> = new Map(
  cardNetworks.map((network) => [network.name, network]),
);
