// The payment pieces other features show: the rescission wizard (the sale flow detail's 'Resciliar
// Reserva').

// Pagos' tabs, for the 'Nómina de pago' screens (issue 33).
export { PaymentsTabs } from './payments-tabs';
export { RescissionDialog } from './rescission-dialog';
// The at-risk form, for the consolidated view's own at-risk change (Informes, issue 16).
export { RiskFormDialog } from './risk-dialog';
