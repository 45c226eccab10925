/** The wire names of the payment API, shared by its mounts, the console's adapter and the tests. */
export const API_PATH = '/v1/index.php';
export const IDEMPOTENCY_HEADER = 'x-service-idempotency';
export const REPLAYED_HEADER = 'x-service-idempotent-replayed';
