/** Where every mount serves the payment API. */
export { API_PATH } from '@/lib/contract';
