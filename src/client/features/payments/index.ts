// The payment pieces other features show: the rescission wizard (the sale flow detail's 'Resciliar
// Reserva').
export { RescissionDialog } from './rescission-dialog';
// The at-risk form, for the consolidated view's own at-risk change (Informes, issue 16).
export { RiskFormDialog } from './risk-dialog';
