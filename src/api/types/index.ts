// Wire types of the research and company-data service: every resource, request body and response
// shape of service-interface.md, with the gaps filled from addendum.md. Field names are the wire
// names (snake_case). The parsers in responses.ts normalise defaults (report `kind`,
// `degradation_reasons`) so these types describe what callers actually receive.
// One module per part of the interface; callers and the sidebar import them all from here.
export * from './research';
export * from './account';
export * from './tables';
export * from './companies';
