/**
 * ISO 18245 merchant category codes, grouped the way fraud and spend analysis groups them. `weight` is
 * the code's share of everyday card spend; `risk` marks the categories card-testing and cash-out fraud
 * favours (digital goods, wire transfers, jewellery, gambling).
 */
export interface MerchantCategory {
  mcc: string;
  description: string;
  group: 'everyday' | 'travel' | 'retail' | 'services' | 'high_risk';
  weight: number;
}

export const merchantCategories: readonly MerchantCategory[] = [
  { mcc: '5411', description: 'Grocery Stores, Supermarkets', group: 'everyday', weight: 180 },
  { mcc: '5812', description: 'Eating Places, Restaurants', group: 'everyday', weight: 120 },
  { mcc: '5814', description: 'Fast Food Restaurants', group: 'everyday', weight: 110 },
  { mcc: '5541', description: 'Service Stations', group: 'everyday', weight: 80 },
  { mcc: '5912', description: 'Drug Stores and Pharmacies', group: 'everyday', weight: 45 },
  { mcc: '5499', description: 'Miscellaneous Food Stores', group: 'everyday', weight: 40 },
  { mcc: '4111', description: 'Local and Suburban Commuter Passenger Transportation', group: 'everyday', weight: 45 },
  { mcc: '4121', description: 'Taxicabs and Limousines', group: 'everyday', weight: 30 },
  { mcc: '5813', description: 'Drinking Places (Alcoholic Beverages)', group: 'everyday', weight: 25 },
  { mcc: '5311', description: 'Department Stores', group: 'retail', weight: 35 },
  { mcc: '5651', description: 'Family Clothing Stores', group: 'retail', weight: 30 },
  { mcc: '5691', description: "Men's and Women's Clothing Stores", group: 'retail', weight: 20 },
  { mcc: '5732', description: 'Electronics Stores', group: 'retail', weight: 18 },
  { mcc: '5942', description: 'Book Stores', group: 'retail', weight: 8 },
  { mcc: '5200', description: 'Home Supply Warehouse Stores', group: 'retail', weight: 15 },
  { mcc: '5999', description: 'Miscellaneous and Specialty Retail Stores', group: 'retail', weight: 25 },
  { mcc: '5310', description: 'Discount Stores', group: 'retail', weight: 20 },
  { mcc: '4511', description: 'Airlines, Air Carriers', group: 'travel', weight: 12 },
  { mcc: '7011', description: 'Lodging: Hotels, Motels, Resorts', group: 'travel', weight: 14 },
  { mcc: '7512', description: 'Automobile Rental Agency', group: 'travel', weight: 5 },
  { mcc: '4722', description: 'Travel Agencies and Tour Operators', group: 'travel', weight: 5 },
  { mcc: '4900', description: 'Utilities: Electric, Gas, Water, Sanitary', group: 'services', weight: 25 },
  { mcc: '4814', description: 'Telecommunication Services', group: 'services', weight: 22 },
  {
    mcc: '4899',
    description: 'Cable, Satellite and Other Pay Television and Radio Services',
    group: 'services',
    weight: 15,
  },
  { mcc: '8011', description: 'Doctors and Physicians', group: 'services', weight: 8 },
  { mcc: '8062', description: 'Hospitals', group: 'services', weight: 4 },
  { mcc: '8220', description: 'Colleges, Universities, Professional Schools', group: 'services', weight: 4 },
  { mcc: '7230', description: 'Beauty and Barber Shops', group: 'services', weight: 8 },
  { mcc: '7832', description: 'Motion Picture Theatres', group: 'services', weight: 6 },
  { mcc: '6300', description: 'Insurance Sales, Underwriting and Premiums', group: 'services', weight: 6 },
  { mcc: '5815', description: 'Digital Goods: Media, Books, Movies, Music', group: 'high_risk', weight: 12 },
  { mcc: '5816', description: 'Digital Goods: Games', group: 'high_risk', weight: 6 },
  { mcc: '5944', description: 'Jewelry Stores, Watches, Clocks and Silverware Stores', group: 'high_risk', weight: 3 },
  { mcc: '4829', description: 'Wire Transfers and Money Orders', group: 'high_risk', weight: 2 },
  {
    mcc: '6051',
    description: 'Non-Financial Institutions: Foreign Currency, Money Orders, Stored Value',
    group: 'high_risk',
    weight: 2,
  },
  {
    mcc: '7995',
    description: 'Betting, including Lottery Tickets, Casino Gaming Chips',
    group: 'high_risk',
    weight: 2,
  },
  { mcc: '6011', description: 'Financial Institutions: Automated Cash Disbursements', group: 'everyday', weight: 30 },
];

export const merchantCategoryByCode: ReadonlyMap<string, MerchantCategory> = new Map(
  merchantCategories.map((category) => [category.mcc, category]),
);
