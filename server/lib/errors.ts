/** A failure the client caused or may see: status, a sentence for the screen, and the input it concerns. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new AppError(400, message, field);
export const unauthorized = (message = 'Please sign in to continue.') => new AppError(401, message);
export const forbidden = (message = 'You do not have permission to do this.', extra?: Record<string, unknown>) =>
  new AppError(403, message, undefined, extra);
export const notFound = (message = 'Not found.') => new AppError(404, message);
export const conflict = (message: string, field?: string) => new AppError(409, message, field);
export const tooLarge = (message: string) => new AppError(413, message);
