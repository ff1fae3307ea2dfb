import { useParams } from 'react-router';
import { NotFoundPage } from '../../app/route-error';
import { AgencyFormPage } from './agency-form';
import { ProjectFormPage } from './project-form';
import { UserFormPage } from './user-form';

/** /configuracion/{tab}/nuevo and /configuracion/{tab}/editar/{id}: the tabs whose records have a form. */
export default function SettingsFormPage() {
  const { tab, id } = useParams();
  switch (tab) {
    case 'proyectos':
      return <ProjectFormPage id={id} />;
    case 'inmobiliarias':
      return <AgencyFormPage id={id} />;
    case 'usuarios':
      return <UserFormPage id={id} />;
    default:
      return <NotFoundPage />;
  }
}
