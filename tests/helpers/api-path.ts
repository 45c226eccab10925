/** Where every mount serves the payment API. */
export const API_PATH = '/v1/index.php';
