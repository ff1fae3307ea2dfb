// The payment pieces other features show: the rescission wizard (the sale flow detail's 'Resciliar
// Reserva').
export { RescissionDialog } from './rescission-dialog';
