/** Account numbers the stress load pays out to; none may appear in full in any log. */
export const ACCOUNT_NUMBERS = ['1234567890', '9876543210123', '5550001112223334'];
