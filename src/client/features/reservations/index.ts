// The reservation pieces other features show: the promotion popup (the payment flow's 'Agregar Promoción').
export { PromotionDialog } from './promotion-dialog';
