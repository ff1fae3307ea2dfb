import { CommissionReport } from './commission-report';

/** /informes/proyeccion-comisiones 'Proyección Comisiones': by commission projection month. */
export default function CommissionProjectionPage() {
  return <CommissionReport kind="projection" />;
}
