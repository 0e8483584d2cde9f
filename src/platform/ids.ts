// Unique ids for jobs, launches and saved searches (RFC 4122 UUIDs from Apps Script).

export function newId(): string {
  return Utilities.getUuid();
}
