export { AccountBalanceCard } from './account-balance-card';
export { BuyerAccountSection } from './buyer-account-section';
