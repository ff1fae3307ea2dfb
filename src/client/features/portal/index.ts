/** What other features show of the brokers' portal: Brokers → 'Portal'. */
export { BrokerPortalUsers } from './broker-portal-users';
