// The one answer every feature gives when another execution (a panel, a job, the timer or a collaborator) holds the
// spreadsheet's document lock past the wait.
export const BUSY_MESSAGE =
  'Sheet Scout is busy with this spreadsheet (another panel, job or collaborator): try again in a moment';
