// Hand-written vocabulary the company generator draws from: industries (with the products, use cases and
// audiences that make descriptions rankable), countries with their cities, size buckets and name parts.

export interface Industry {
  name: string;
  /** Word used in brand names, e.g. "Security" in "Novion Security". */
  brandWord: string;
  products: string[];
  useCases: string[];
  audiences: string[];
}

export const INDUSTRIES: Industry[] = [
  {
    name: 'cybersecurity',
    brandWord: 'Security',
    products: ['endpoint detection and response platform', 'zero-trust network access gateway', 'security awareness training', 'cloud security posture management', 'managed threat hunting service', 'vulnerability scanner', 'identity threat detection'],
    useCases: ['stopping ransomware before it spreads', 'passing SOC 2 and ISO 27001 audits', 'securing remote workforces', 'detecting compromised credentials', 'reducing alert fatigue in security operations'],
    audiences: ['hospitals and clinics', 'regional banks', 'mid-market IT teams', 'security operations centers', 'government agencies', 'manufacturers with industrial control systems'],
  },
  {
    name: 'healthcare technology',
    brandWord: 'Health',
    products: ['electronic health record add-on', 'telehealth platform', 'patient scheduling software', 'remote patient monitoring devices', 'clinical documentation assistant', 'medical billing automation'],
    useCases: ['cutting patient no-shows', 'coding claims accurately', 'monitoring chronic conditions at home', 'reducing clinician burnout', 'coordinating care across providers'],
    audiences: ['hospitals and clinics', 'independent physician practices', 'home care agencies', 'health insurers', 'dental groups', 'behavioral health providers'],
  },
  {
    name: 'financial technology',
    brandWord: 'Pay',
    products: ['payment processing API', 'corporate card and spend management', 'accounts payable automation', 'fraud scoring engine', 'embedded lending platform', 'treasury management dashboard'],
    useCases: ['paying suppliers in many currencies', 'closing the books faster', 'blocking card fraud in real time', 'offering financing at checkout', 'reconciling bank transactions'],
    audiences: ['online retailers', 'finance teams at growing companies', 'regional banks', 'marketplaces', 'software platforms that embed payments', 'accounting firms'],
  },
  {
    name: 'marketing technology',
    brandWord: 'Reach',
    products: ['email marketing platform', 'customer data platform', 'marketing attribution analytics', 'social media scheduling tool', 'landing page builder', 'influencer marketplace'],
    useCases: ['personalizing campaigns', 'measuring marketing return on spend', 'growing newsletter audiences', 'running account-based marketing', 'testing landing pages'],
    audiences: ['B2B marketing teams', 'direct-to-consumer brands', 'digital agencies', 'online retailers', 'publishers and media companies', 'small businesses'],
  },
  {
    name: 'sales software',
    brandWord: 'Pipeline',
    products: ['CRM for small teams', 'sales engagement platform', 'revenue intelligence tool', 'lead enrichment API', 'conversation intelligence recorder', 'quote-to-cash software'],
    useCases: ['prioritizing inbound leads', 'forecasting revenue', 'automating outbound sequences', 'coaching sales reps from call recordings', 'keeping CRM data clean'],
    audiences: ['B2B sales teams', 'revenue operations leaders', 'startups selling to enterprises', 'SaaS companies', 'recruiting agencies', 'wholesale distributors'],
  },
  {
    name: 'human resources software',
    brandWord: 'People',
    products: ['applicant tracking system', 'payroll and benefits platform', 'employee engagement surveys', 'performance review software', 'workforce scheduling app', 'learning management system'],
    useCases: ['hiring faster', 'running payroll across countries', 'reducing employee turnover', 'onboarding new hires', 'scheduling shift workers'],
    audiences: ['HR teams at mid-sized companies', 'restaurants and hospitality groups', 'retail chains', 'staffing agencies', 'remote-first companies', 'universities'],
  },
  {
    name: 'logistics',
    brandWord: 'Freight',
    products: ['transportation management system', 'last-mile delivery routing', 'freight marketplace', 'warehouse management software', 'fleet telematics', 'customs brokerage platform'],
    useCases: ['cutting shipping costs', 'tracking shipments in real time', 'planning delivery routes', 'booking truckload capacity', 'clearing customs faster'],
    audiences: ['shippers and manufacturers', 'third-party logistics providers', 'e-commerce brands', 'trucking carriers', 'grocery chains', 'importers and exporters'],
  },
  {
    name: 'e-commerce',
    brandWord: 'Commerce',
    products: ['headless storefront platform', 'product search and recommendations', 'subscription billing for shops', 'returns management software', 'marketplace management tool', 'product information management'],
    useCases: ['increasing online conversion', 'reducing returns', 'selling on multiple marketplaces', 'launching subscription boxes', 'keeping product catalogs consistent'],
    audiences: ['direct-to-consumer brands', 'online retailers', 'wholesale distributors', 'fashion labels', 'consumer electronics sellers', 'grocery chains'],
  },
  {
    name: 'education technology',
    brandWord: 'Learning',
    products: ['online course platform', 'K-12 classroom app', 'language learning app', 'exam proctoring software', 'tutoring marketplace', 'student information system'],
    useCases: ['teaching remotely', 'tracking student progress', 'preparing for certification exams', 'upskilling employees', 'running school administration'],
    audiences: ['universities', 'K-12 school districts', 'corporate training teams', 'independent course creators', 'language learners', 'test preparation centers'],
  },
  {
    name: 'real estate technology',
    brandWord: 'Property',
    products: ['property management software', 'commercial lease analytics', 'home valuation API', 'tenant screening service', 'smart building sensors', 'real estate CRM'],
    useCases: ['collecting rent online', 'valuing homes instantly', 'screening tenants', 'lowering building energy use', 'managing lease portfolios'],
    audiences: ['property managers', 'real estate agents and brokers', 'commercial landlords', 'homebuyers', 'mortgage lenders', 'facility managers'],
  },
  {
    name: 'climate technology',
    brandWord: 'Climate',
    products: ['carbon accounting software', 'solar asset monitoring', 'battery storage controls', 'EV charging network software', 'energy efficiency analytics', 'supply chain emissions tracker'],
    useCases: ['measuring scope 3 emissions', 'meeting climate disclosure rules', 'managing EV charging sites', 'maximizing solar output', 'cutting building energy bills'],
    audiences: ['sustainability teams', 'utilities', 'fleet operators', 'commercial landlords', 'manufacturers', 'solar developers'],
  },
  {
    name: 'data and analytics',
    brandWord: 'Analytics',
    products: ['business intelligence dashboards', 'data warehouse connector', 'product analytics platform', 'data quality monitoring', 'reverse ETL tool', 'embedded analytics SDK'],
    useCases: ['building self-serve dashboards', 'syncing data to the warehouse', 'catching broken data pipelines', 'understanding product usage', 'sharing metrics with customers'],
    audiences: ['data teams', 'product managers', 'SaaS companies', 'finance teams at growing companies', 'analytics engineers', 'online retailers'],
  },
  {
    name: 'developer tools',
    brandWord: 'Dev',
    products: ['continuous integration service', 'feature flag platform', 'API testing tool', 'error monitoring service', 'internal developer portal', 'infrastructure as code platform'],
    useCases: ['shipping code safely', 'finding production errors', 'testing APIs automatically', 'rolling out features gradually', 'managing cloud infrastructure'],
    audiences: ['software engineering teams', 'platform engineering teams', 'startups', 'SaaS companies', 'open-source maintainers', 'enterprise IT departments'],
  },
  {
    name: 'artificial intelligence',
    brandWord: 'AI',
    products: ['large language model platform', 'computer vision API', 'AI customer support agent', 'document processing AI', 'speech recognition engine', 'machine learning operations platform'],
    useCases: ['automating document intake', 'answering support tickets automatically', 'inspecting products with cameras', 'transcribing calls', 'deploying machine learning models'],
    audiences: ['customer support teams', 'insurers processing claims', 'manufacturers', 'contact centers', 'data science teams', 'law firms'],
  },
  {
    name: 'legal technology',
    brandWord: 'Legal',
    products: ['contract lifecycle management', 'e-discovery platform', 'legal practice management software', 'e-signature service', 'legal research assistant', 'compliance policy manager'],
    useCases: ['reviewing contracts faster', 'tracking legal matters', 'collecting signatures', 'searching case law', 'keeping policies compliant'],
    audiences: ['law firms', 'in-house legal teams', 'compliance officers', 'procurement teams', 'small businesses', 'government agencies'],
  },
  {
    name: 'construction technology',
    brandWord: 'Build',
    products: ['construction project management software', 'jobsite safety app', 'bid management platform', 'building information modeling viewer', 'equipment rental marketplace', 'construction payments platform'],
    useCases: ['keeping projects on schedule', 'reducing jobsite incidents', 'winning more bids', 'paying subcontractors on time', 'sharing drawings with crews'],
    audiences: ['general contractors', 'specialty subcontractors', 'architects', 'property developers', 'equipment rental companies', 'facility managers'],
  },
  {
    name: 'agriculture technology',
    brandWord: 'Farm',
    products: ['farm management software', 'precision irrigation controls', 'crop monitoring drones', 'livestock health sensors', 'grain marketplace', 'soil analytics'],
    useCases: ['saving irrigation water', 'detecting crop disease early', 'tracking livestock health', 'selling grain at better prices', 'planning planting seasons'],
    audiences: ['row crop farmers', 'dairy farms', 'agricultural cooperatives', 'food processors', 'vineyards', 'greenhouse growers'],
  },
  {
    name: 'travel and hospitality',
    brandWord: 'Travel',
    products: ['hotel property management system', 'corporate travel booking tool', 'restaurant reservation platform', 'vacation rental channel manager', 'tour booking software', 'guest messaging app'],
    useCases: ['filling hotel rooms', 'controlling business travel spend', 'managing restaurant reservations', 'listing rentals on many channels', 'messaging guests before arrival'],
    audiences: ['independent hotels', 'restaurants and hospitality groups', 'travel managers', 'vacation rental hosts', 'tour operators', 'event venues'],
  },
  {
    name: 'insurance technology',
    brandWord: 'Insure',
    products: ['policy administration system', 'claims automation platform', 'embedded insurance API', 'underwriting risk models', 'insurance agency CRM', 'usage-based auto insurance'],
    useCases: ['settling claims faster', 'pricing risk accurately', 'selling insurance at checkout', 'managing agency books of business', 'launching new insurance products'],
    audiences: ['health insurers', 'insurers processing claims', 'insurance agencies', 'online retailers', 'fleet operators', 'reinsurers'],
  },
  {
    name: 'manufacturing software',
    brandWord: 'Works',
    products: ['manufacturing execution system', 'predictive maintenance sensors', 'quality management software', 'production scheduling tool', 'industrial IoT platform', 'supplier collaboration portal'],
    useCases: ['preventing machine downtime', 'tracing product defects', 'scheduling production lines', 'connecting factory equipment', 'managing supplier quality'],
    audiences: ['manufacturers', 'automotive suppliers', 'food processors', 'electronics manufacturers', 'plant managers', 'manufacturers with industrial control systems'],
  },
  {
    name: 'media and entertainment',
    brandWord: 'Media',
    products: ['video streaming platform', 'podcast hosting service', 'digital rights management', 'ad-supported streaming tools', 'newsroom publishing system', 'music licensing marketplace'],
    useCases: ['launching a streaming service', 'monetizing podcasts', 'protecting content from piracy', 'publishing news faster', 'licensing music for video'],
    audiences: ['publishers and media companies', 'podcasters', 'film studios', 'sports leagues', 'independent creators', 'broadcasters'],
  },
  {
    name: 'customer support software',
    brandWord: 'Support',
    products: ['help desk software', 'live chat widget', 'customer feedback surveys', 'knowledge base builder', 'contact center as a service', 'customer success platform'],
    useCases: ['answering tickets faster', 'reducing customer churn', 'measuring customer satisfaction', 'deflecting common questions', 'routing calls to the right agent'],
    audiences: ['customer support teams', 'contact centers', 'SaaS companies', 'online retailers', 'customer success managers', 'telecom operators'],
  },
  {
    name: 'biotechnology',
    brandWord: 'Bio',
    products: ['lab information management system', 'gene sequencing analysis software', 'clinical trial management platform', 'electronic lab notebook', 'drug discovery AI', 'biobank inventory software'],
    useCases: ['running clinical trials', 'analyzing genomic data', 'tracking lab samples', 'finding drug candidates', 'documenting experiments'],
    audiences: ['pharmaceutical companies', 'research universities', 'contract research organizations', 'biotech startups', 'hospital laboratories', 'clinical trial sponsors'],
  },
  {
    name: 'productivity software',
    brandWord: 'Flow',
    products: ['project management app', 'team wiki', 'workflow automation tool', 'meeting notes assistant', 'digital whiteboard', 'time tracking software'],
    useCases: ['planning projects', 'automating repetitive tasks', 'documenting team knowledge', 'running better meetings', 'billing clients for time'],
    audiences: ['remote-first companies', 'digital agencies', 'small businesses', 'consultancies', 'product teams', 'nonprofits'],
  },
];

export interface City {
  city: string;
  state: string;
}

export interface Country {
  name: string;
  weight: number;
  topLevelDomain: string;
  cities: City[];
}

export const COUNTRIES: Country[] = [
  { name: 'United States', weight: 34, topLevelDomain: 'com', cities: [
    { city: 'San Francisco', state: 'California' }, { city: 'New York', state: 'New York' }, { city: 'Austin', state: 'Texas' },
    { city: 'Boston', state: 'Massachusetts' }, { city: 'Seattle', state: 'Washington' }, { city: 'Chicago', state: 'Illinois' },
    { city: 'Denver', state: 'Colorado' }, { city: 'Atlanta', state: 'Georgia' }, { city: 'Miami', state: 'Florida' },
    { city: 'Los Angeles', state: 'California' }] },
  { name: 'United Kingdom', weight: 10, topLevelDomain: 'co.uk', cities: [
    { city: 'London', state: 'England' }, { city: 'Manchester', state: 'England' }, { city: 'Edinburgh', state: 'Scotland' },
    { city: 'Bristol', state: 'England' }, { city: 'Cambridge', state: 'England' }] },
  { name: 'Germany', weight: 8, topLevelDomain: 'de', cities: [
    { city: 'Berlin', state: 'Berlin' }, { city: 'Munich', state: 'Bavaria' }, { city: 'Hamburg', state: 'Hamburg' },
    { city: 'Cologne', state: 'North Rhine-Westphalia' }, { city: 'Frankfurt', state: 'Hesse' }] },
  { name: 'France', weight: 6, topLevelDomain: 'fr', cities: [
    { city: 'Paris', state: 'Île-de-France' }, { city: 'Lyon', state: 'Auvergne-Rhône-Alpes' },
    { city: 'Toulouse', state: 'Occitanie' }, { city: 'Nantes', state: 'Pays de la Loire' }] },
  { name: 'Canada', weight: 6, topLevelDomain: 'ca', cities: [
    { city: 'Toronto', state: 'Ontario' }, { city: 'Vancouver', state: 'British Columbia' },
    { city: 'Montreal', state: 'Quebec' }, { city: 'Ottawa', state: 'Ontario' }] },
  { name: 'India', weight: 6, topLevelDomain: 'in', cities: [
    { city: 'Bengaluru', state: 'Karnataka' }, { city: 'Mumbai', state: 'Maharashtra' }, { city: 'Pune', state: 'Maharashtra' },
    { city: 'Hyderabad', state: 'Telangana' }, { city: 'New Delhi', state: 'Delhi' }] },
  { name: 'Netherlands', weight: 4, topLevelDomain: 'nl', cities: [
    { city: 'Amsterdam', state: 'North Holland' }, { city: 'Rotterdam', state: 'South Holland' }, { city: 'Utrecht', state: 'Utrecht' }] },
  { name: 'Spain', weight: 4, topLevelDomain: 'es', cities: [
    { city: 'Madrid', state: 'Community of Madrid' }, { city: 'Barcelona', state: 'Catalonia' }, { city: 'Valencia', state: 'Valencian Community' }] },
  { name: 'Australia', weight: 4, topLevelDomain: 'com.au', cities: [
    { city: 'Sydney', state: 'New South Wales' }, { city: 'Melbourne', state: 'Victoria' }, { city: 'Brisbane', state: 'Queensland' }] },
  { name: 'Sweden', weight: 3, topLevelDomain: 'se', cities: [
    { city: 'Stockholm', state: 'Stockholm County' }, { city: 'Gothenburg', state: 'Västra Götaland' }, { city: 'Malmö', state: 'Skåne' }] },
  { name: 'Singapore', weight: 3, topLevelDomain: 'sg', cities: [{ city: 'Singapore', state: 'Singapore' }] },
  { name: 'Brazil', weight: 3, topLevelDomain: 'com.br', cities: [
    { city: 'São Paulo', state: 'São Paulo' }, { city: 'Rio de Janeiro', state: 'Rio de Janeiro' }, { city: 'Florianópolis', state: 'Santa Catarina' }] },
  { name: 'Israel', weight: 3, topLevelDomain: 'co.il', cities: [
    { city: 'Tel Aviv', state: 'Tel Aviv District' }, { city: 'Haifa', state: 'Haifa District' }] },
  { name: 'Japan', weight: 2, topLevelDomain: 'jp', cities: [{ city: 'Tokyo', state: 'Tokyo' }, { city: 'Osaka', state: 'Osaka' }] },
  { name: 'Ireland', weight: 2, topLevelDomain: 'ie', cities: [{ city: 'Dublin', state: 'Leinster' }, { city: 'Cork', state: 'Munster' }] },
  { name: 'Switzerland', weight: 2, topLevelDomain: 'ch', cities: [{ city: 'Zurich', state: 'Zurich' }, { city: 'Geneva', state: 'Geneva' }] },
  { name: 'Mexico', weight: 2, topLevelDomain: 'com.mx', cities: [{ city: 'Mexico City', state: 'Mexico City' }, { city: 'Guadalajara', state: 'Jalisco' }] },
];

/** The addendum's eight size buckets, smallest first. */
export const SIZE_BUCKETS = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+'] as const;
export type SizeBucket = (typeof SIZE_BUCKETS)[number];

/** How often each bucket occurs in the index (same order as SIZE_BUCKETS). */
export const SIZE_WEIGHTS = [18, 28, 24, 12, 7, 7, 2.5, 1.5];

/** Syllables for invented brand names ("Novion", "Zenix"). */
export const BRAND_PREFIXES = ['Ar', 'Bel', 'Cor', 'Dex', 'El', 'Fen', 'Gal', 'Hel', 'Iv', 'Jun', 'Kal', 'Lum', 'Mer', 'Nov', 'Or', 'Pax', 'Quin', 'Rho', 'Sol', 'Tal', 'Ul', 'Ver', 'Wex', 'Xan', 'Yor', 'Zen', 'Bry', 'Cal', 'Dar', 'Es'];
export const BRAND_SUFFIXES = ['a', 'ion', 'ix', 'ora', 'us', 'eon', 'ly', 'io', 'ara', 'ent', 'ico', 'iva', 'um', 'and', 'ex'];
export const GENERIC_TOP_LEVEL_DOMAINS = ['com', 'com', 'com', 'io', 'ai', 'co'];
