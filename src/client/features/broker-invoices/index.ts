export { BrokerInvoiceSection } from './broker-invoice-section';
