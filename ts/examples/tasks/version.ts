/** The API version `GET /` reports (and `openapi.info.version`). */
export const API_VERSION = '1.0.0';
