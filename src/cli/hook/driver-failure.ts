/** A failure the hook driver itself detects (as opposed to one thrown by what it calls). */
export class DriverFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
