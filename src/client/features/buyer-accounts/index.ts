export { BuyerAccountSection } from './buyer-account-section';
