// What a cell holds after a script writes a value with setValues: Sheets reads a leading apostrophe as "this is
// text" and does not keep it. Fakes of sheet ports store values through here, so unit tests assert what the user
// sees; the add-in's escaping itself is checked on the raw writes (and, through the emulator, in integration tests).
export function storedValue<T>(value: T): T {
  return (typeof value === 'string' && value.startsWith("'") ? value.slice(1) : value) as T;
}

/** Whether a written value reaches the cell as text whatever it looks like (Sheets' text prefix). */
export function writtenAsText(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith("'");
}
