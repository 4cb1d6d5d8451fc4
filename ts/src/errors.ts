/** Stable codes carried by every error Arbor raises on purpose. */
export type RouteErrorCode =
  | 'ROUTE_CONFLICT'
  | 'INVALID_PATTERN'
  | 'INVALID_CONSTRAINT'
  | 'INVALID_OPTIONAL'
  | 'DUPLICATE_PARAM'
  | 'TOO_MANY_PARAMS'
  | 'DUPLICATE_NAME'
  | 'UNKNOWN_ROUTE'
  | 'SNAPSHOT_INVALID'
  | 'SNAPSHOT_VERSION'
  | 'MISSING_PARAMETER'
  | 'INVALID_PARAMETER'
  | 'UNKNOWN_MIDDLEWARE'
  | 'CONTRACT_MISSING'
  | 'CONTRACT_CONFLICT'
  | 'SCHEMA_NOT_CONVERTIBLE'
  | 'CONTRACT_INVALID'
  | 'CONTRACTS_INVALID'
  | 'CONTRACTS_STALE';

export interface RouteErrorDetails {
  pattern?: string;
  /** Byte position in the pattern where the problem starts. */
  position?: number;
  /** Pattern of the route this one conflicts with. */
  conflictsWith?: string;
}

/** A mistake in route registration or URL generation, reported with the pattern and position. */
export class RouteError extends Error {
  readonly code: RouteErrorCode;
  readonly pattern: string | undefined;
  readonly position: number | undefined;
  readonly conflictsWith: string | undefined;

  constructor(code: RouteErrorCode, message: string, details: RouteErrorDetails = {}) {
    super(message);
    this.name = 'RouteError';
    this.code = code;
    this.pattern = details.pattern;
    this.position = details.position;
    this.conflictsWith = details.conflictsWith;
  }
}
