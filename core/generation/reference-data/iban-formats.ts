/**
 * IBAN formats per country (ISO 13616 registry: length and BBAN structure) and a few real banks of each
 * country with their BIC and national bank code, so that an account's IBAN and BIC name the same bank.
 * `national_check` names the country's own BBAN check-digit scheme, computed in realism/iban.ts; a bank's
 * `account_check` the scheme of the check digit inside its account numbers (Germany's differ by bank).
 * Segment characters: `n` digits, `a` upper-case letters, `c` digits or letters.
 */
export interface BbanSegment {
  part: 'bank' | 'branch' | 'account' | 'check';
  length: number;
  chars: 'n' | 'a' | 'c';
}

export interface Bank {
  name: string;
  bic: string;
  bank_code: string;
  /** Leading digits of the bank's branch (sort) codes, where they identify the bank. */
  branch_prefix?: string;
  /** The check-digit scheme of the bank's account numbers, where they carry one (realism/account-checks.ts). */
  account_check?: AccountCheck;
}

/** Germany's Bundesbank methods by their code (13, 24, 63, C1), and the Dutch eleven test. */
export type AccountCheck = 'de-13' | 'de-24' | 'de-63' | 'de-c1' | 'nl-11';

export type NationalCheck = 'be' | 'es' | 'fi' | 'fr' | 'it' | 'no' | 'pl' | 'pt';

export interface IbanFormat {
  country: string;
  length: number;
  bban: readonly BbanSegment[];
  national_check?: NationalCheck;
  banks: readonly Bank[];
}

const seg = (part: BbanSegment['part'], length: number, chars: BbanSegment['chars'] = 'n'): BbanSegment => ({
  part,
  length,
  chars,
});

export const ibanFormats: readonly IbanFormat[] = [
  {
    country: 'AT',
    length: 20,
    bban: [seg('bank', 5), seg('account', 11)],
    banks: [
      { name: 'Erste Bank der oesterreichischen Sparkassen', bic: 'GIBAATWW', bank_code: '20111' },
      { name: 'Raiffeisen Bank International', bic: 'RZBAATWW', bank_code: '31000' },
      { name: 'UniCredit Bank Austria', bic: 'BKAUATWW', bank_code: '12000' },
    ],
  },
  {
    country: 'BE',
    length: 16,
    bban: [seg('bank', 3), seg('account', 7), seg('check', 2)],
    national_check: 'be',
    banks: [
      { name: 'BNP Paribas Fortis', bic: 'GEBABEBB', bank_code: '001' },
      { name: 'KBC Bank', bic: 'KREDBEBB', bank_code: '734' },
      { name: 'Belfius Bank', bic: 'GKCCBEBB', bank_code: '068' },
      { name: 'ING Belgium', bic: 'BBRUBEBB', bank_code: '310' },
    ],
  },
  {
    country: 'CH',
    length: 21,
    bban: [seg('bank', 5), seg('account', 12, 'c')],
    banks: [
      { name: 'UBS Switzerland', bic: 'UBSWCHZH', bank_code: '00230' },
      { name: 'Zürcher Kantonalbank', bic: 'ZKBKCHZZ', bank_code: '00700' },
      { name: 'PostFinance', bic: 'POFICHBE', bank_code: '09000' },
    ],
  },
  {
    country: 'DE',
    length: 22,
    bban: [seg('bank', 8), seg('account', 10)],
    banks: [
      { name: 'Deutsche Bank', bic: 'DEUTDEFF', bank_code: '50070010', account_check: 'de-63' },
      { name: 'Commerzbank', bic: 'COBADEFF', bank_code: '50040000', account_check: 'de-13' },
      { name: 'Postbank', bic: 'PBNKDEFF', bank_code: '10010010', account_check: 'de-24' },
      { name: 'ING-DiBa', bic: 'INGDDEFF', bank_code: '50010517', account_check: 'de-c1' },
    ],
  },
  {
    country: 'ES',
    length: 24,
    bban: [seg('bank', 4), seg('branch', 4), seg('check', 2), seg('account', 10)],
    national_check: 'es',
    banks: [
      { name: 'Banco Santander', bic: 'BSCHESMM', bank_code: '0049' },
      { name: 'BBVA', bic: 'BBVAESMM', bank_code: '0182' },
      { name: 'CaixaBank', bic: 'CAIXESBB', bank_code: '2100' },
      { name: 'Banco Sabadell', bic: 'BSABESBB', bank_code: '0081' },
    ],
  },
  {
    country: 'FI',
    length: 18,
    bban: [seg('bank', 3), seg('account', 10), seg('check', 1)],
    national_check: 'fi',
    banks: [
      { name: 'Nordea Bank', bic: 'NDEAFIHH', bank_code: '101' },
      { name: 'OP Corporate Bank', bic: 'OKOYFIHH', bank_code: '500' },
      { name: 'Danske Bank', bic: 'DABAFIHH', bank_code: '800' },
    ],
  },
  {
    country: 'FR',
    length: 27,
    bban: [seg('bank', 5), seg('branch', 5), seg('account', 11, 'c'), seg('check', 2)],
    national_check: 'fr',
    banks: [
      { name: 'BNP Paribas', bic: 'BNPAFRPP', bank_code: '30004' },
      { name: 'Société Générale', bic: 'SOGEFRPP', bank_code: '30003' },
      { name: 'Crédit Lyonnais (LCL)', bic: 'CRLYFRPP', bank_code: '30002' },
      { name: 'Crédit Agricole', bic: 'AGRIFRPP', bank_code: '30006' },
    ],
  },
  {
    country: 'GB',
    length: 22,
    bban: [seg('bank', 4, 'a'), seg('branch', 6), seg('account', 8)],
    banks: [
      { name: 'Barclays Bank', bic: 'BARCGB22', bank_code: 'BARC', branch_prefix: '20' },
      { name: 'HSBC UK Bank', bic: 'HBUKGB4B', bank_code: 'HBUK', branch_prefix: '40' },
      { name: 'Lloyds Bank', bic: 'LOYDGB2L', bank_code: 'LOYD', branch_prefix: '30' },
      { name: 'National Westminster Bank', bic: 'NWBKGB2L', bank_code: 'NWBK', branch_prefix: '60' },
    ],
  },
  {
    country: 'IE',
    length: 22,
    bban: [seg('bank', 4, 'a'), seg('branch', 6), seg('account', 8)],
    banks: [
      { name: 'Allied Irish Banks', bic: 'AIBKIE2D', bank_code: 'AIBK', branch_prefix: '93' },
      { name: 'Bank of Ireland', bic: 'BOFIIE2D', bank_code: 'BOFI', branch_prefix: '90' },
    ],
  },
  {
    country: 'IT',
    length: 27,
    bban: [seg('check', 1, 'a'), seg('bank', 5), seg('branch', 5), seg('account', 12, 'c')],
    national_check: 'it',
    banks: [
      { name: 'UniCredit', bic: 'UNCRITMM', bank_code: '02008' },
      { name: 'Intesa Sanpaolo', bic: 'BCITITMM', bank_code: '03069' },
      { name: 'Banco BPM', bic: 'BAPPIT21', bank_code: '05034' },
    ],
  },
  {
    country: 'NL',
    length: 18,
    bban: [seg('bank', 4, 'a'), seg('account', 10)],
    banks: [
      { name: 'ING Bank', bic: 'INGBNL2A', bank_code: 'INGB', account_check: 'nl-11' },
      { name: 'ABN AMRO Bank', bic: 'ABNANL2A', bank_code: 'ABNA', account_check: 'nl-11' },
      { name: 'Rabobank', bic: 'RABONL2U', bank_code: 'RABO', account_check: 'nl-11' },
    ],
  },
  {
    country: 'NO',
    length: 15,
    bban: [seg('bank', 4), seg('account', 6), seg('check', 1)],
    national_check: 'no',
    banks: [
      { name: 'DNB Bank', bic: 'DNBANOKK', bank_code: '1503' },
      { name: 'Nordea Bank Norge', bic: 'NDEANOKK', bank_code: '6063' },
      { name: 'SpareBank 1 SR-Bank', bic: 'SPRONO22', bank_code: '3201' },
    ],
  },
  {
    country: 'PL',
    length: 28,
    bban: [seg('bank', 4), seg('branch', 3), seg('check', 1), seg('account', 16)],
    national_check: 'pl',
    banks: [
      { name: 'PKO Bank Polski', bic: 'BPKOPLPW', bank_code: '1020' },
      { name: 'Bank Pekao', bic: 'PKOPPLPW', bank_code: '1240' },
      { name: 'mBank', bic: 'BREXPLPW', bank_code: '1140' },
    ],
  },
  {
    country: 'PT',
    length: 25,
    bban: [seg('bank', 4), seg('branch', 4), seg('account', 11), seg('check', 2)],
    national_check: 'pt',
    banks: [
      { name: 'Caixa Geral de Depósitos', bic: 'CGDIPTPL', bank_code: '0035' },
      { name: 'Millennium bcp', bic: 'BCOMPTPL', bank_code: '0033' },
      { name: 'Novo Banco', bic: 'BESCPTPL', bank_code: '0007' },
    ],
  },
];

export const ibanFormatByCountry: ReadonlyMap<string, IbanFormat> = new Map(
  ibanFormats.map((format) => [format.country, format]),
);

/** Every bank of every IBAN country, by the first eight characters of its BIC. */
export const bankByBic: ReadonlyMap<string, Bank & { country: string }> = new Map(
  ibanFormats.flatMap((format) =>
    format.banks.map((bank) => [bank.bic.slice(0, 8), { ...bank, country: format.country }] as const),
  ),
);
