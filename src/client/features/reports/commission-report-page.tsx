import { CommissionReport } from './commission-report';

/** /informes/comisiones 'Informe de Comisiones': by commission payment month. */
export default function CommissionReportPage() {
  return <CommissionReport kind="payment" />;
}
