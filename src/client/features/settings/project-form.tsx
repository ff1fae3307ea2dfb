import { Anchor, NumberInput, Paper, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBuildingSkyscraper } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { projectInstallments } from '../../../shared/domain/projects';
import { formatRut, santiagoDateOf } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import {
  IMAGE_HINT,
  type Project,
  type ProjectBody,
  projectBody,
  totalUnitsNote,
} from '../../../shared/schemas/settings';
import { paths } from '../../app/paths';
import { DateField } from '../../components/date-field';
import { AFTER_SAVE, useLeaveGuard } from '../../components/leave-guard';
import {
  FormActions,
  type FormFailure,
  FormFailureAlert,
  RecordFormPage,
} from '../../components/record-form';
import { errorMessage } from '../../lib/api';
import { applyServerErrors, schemaErrors } from '../../lib/forms';
import { notifySaved } from '../../lib/notify';
import { useCurrentUser } from '../../lib/session';
import { ProjectStockSection } from '../stock';
import { settingsKeys, useAgencyOptions, useProject, useProjectLogo, useSaveProject } from './api';
import { type ImageChange, ImagePicker, KEEP_IMAGE } from './image-picker';
import {
  AdminOnly,
  FormHeader,
  type FormLocationState,
  imageFailure,
  useBackTo,
  useFormKey,
} from './settings-form';

interface ProjectFormValues {
  name: string;
  stage: string;
  commune: string;
  deadline: string | null;
  realEstateAgencyId: string | null;
  totalUnits: number | string;
}

function valuesOf(project: Project | undefined): ProjectFormValues {
  return {
    name: project?.name ?? '',
    stage: project?.stage ?? '',
    commune: project?.commune ?? '',
    deadline: project?.deadline ?? null,
    realEstateAgencyId: project?.realEstateAgencyId ?? null,
    totalUnits: project?.totalUnits ?? '',
  };
}

/** The request body of the form's values (empty fields as the schema expects them). */
export function projectBodyOf(values: ProjectFormValues): ProjectBody {
  return {
    name: values.name,
    stage: values.stage,
    commune: values.commune,
    deadline: values.deadline ?? '',
    realEstateAgencyId: values.realEstateAgencyId ?? '',
    totalUnits: values.totalUnits === '' ? null : Number(values.totalUnits),
  };
}

/** The installments shown (read-only), live as the deadline changes (spec part 2 §5). */
export function installmentsShown(deadline: string | null, today: string): string {
  return deadline && /^\d{4}-\d{2}-\d{2}$/.test(deadline) ? String(projectInstallments(deadline, today)) : '';
}

/** /configuracion/proyectos/nuevo and …/editar/{id}. */
export function ProjectFormPage({ id }: { id: string | undefined }) {
  const canManage = can(useCurrentUser(), 'projects.manage');
  const project = useProject(canManage ? id : undefined);
  const backTo = useBackTo('proyectos');
  const formKey = useFormKey(id);
  const title = id ? 'Editar Proyecto' : 'Nuevo Proyecto';

  if (!canManage) return <AdminOnly title={title} backTo={backTo} what="proyectos" />;
  return (
    <RecordFormPage
      id={id}
      record={project}
      formKey={formKey}
      title={title}
      what="el proyecto"
      backTo={backTo}
      backLabel="Volver a Proyectos"
    >
      {({ record, onReload }) => (
        <ProjectForm formKey={formKey} project={record} backTo={backTo} onReload={onReload} />
      )}
    </RecordFormPage>
  );
}

function ProjectForm({
  formKey,
  project,
  backTo,
  onReload,
}: {
  formKey: string;
  project: Project | undefined;
  backTo: string;
  onReload: () => void;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const agencies = useAgencyOptions();
  const save = useSaveProject();
  const saveLogo = useProjectLogo();
  // The record as last saved: a new project whose logo failed is edited from then on.
  const [current, setCurrent] = useState(project);
  const [logo, setLogo] = useState<ImageChange>(KEEP_IMAGE);
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const saving = save.isPending || saveLogo.isPending;
  const today = useMemo(() => santiagoDateOf(new Date()), []);

  const form = useForm<ProjectFormValues>({
    mode: 'controlled',
    initialValues: valuesOf(project),
    validate: (values) => schemaErrors(projectBody, projectBodyOf(values)),
  });
  const leaveGuard = useLeaveGuard((form.isDirty() || logo.kind !== 'keep') && !saving);

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    let saved = current;
    try {
      if (!current || form.isDirty()) {
        const body = projectBody.parse(projectBodyOf(values));
        saved = await save.mutateAsync({
          id: current?.id,
          body: current ? { ...body, version: current.version } : body,
        });
      }
    } catch (error) {
      applyServerErrors(form, error);
      setFailure({ error });
      return;
    }
    if (!saved) return;
    if (logo.kind !== 'keep') {
      try {
        saved = await saveLogo.mutateAsync({ id: saved.id, file: logo.kind === 'upload' ? logo.file : null });
      } catch (error) {
        // The record is saved: say so, stay here with the chosen file, and edit it from now on.
        setCurrent(saved);
        form.resetDirty(values);
        setFailure(imageFailure('El proyecto', 'el logo', error));
        if (!current) {
          queryClient.setQueryData(settingsKeys.project(saved.id), saved);
          const state: FormLocationState = {
            ...AFTER_SAVE,
            from: (location.state as FormLocationState | null)?.from,
            formKey,
          };
          navigate(paths.editSettingsRecord('proyectos', saved.id), { replace: true, state });
        }
        return;
      }
    }
    notifySaved(current ? 'Proyecto actualizado' : 'Proyecto creado');
    navigate(backTo, { state: AFTER_SAVE });
  });

  const agencyOptions = (agencies.data ?? []).map((agency) => ({
    value: agency.id,
    label: `${agency.businessName} (${formatRut(agency.rut)})`,
  }));
  const noAgencies = agencies.isSuccess && agencies.data.length === 0;

  return (
    <>
      <FormHeader title={current ? 'Editar Proyecto' : 'Nuevo Proyecto'} backTo={backTo} />
      {leaveGuard}
      <form onSubmit={submit} noValidate>
        <Stack maw={760}>
          <FormFailureAlert failure={failure} onReload={current ? onReload : undefined} />
          <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
            <Stack gap="lg">
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="Nombre"
                  required
                  autoComplete="off"
                  key={form.key('name')}
                  {...form.getInputProps('name')}
                />
                <TextInput
                  label="Etapa"
                  required
                  autoComplete="off"
                  placeholder="Por ejemplo: Etapa 1"
                  key={form.key('stage')}
                  {...form.getInputProps('stage')}
                />
                <TextInput
                  label="Comuna"
                  required
                  autoComplete="off"
                  key={form.key('commune')}
                  {...form.getInputProps('commune')}
                />
                <DateField
                  label="Fecha de Entrega"
                  required
                  key={form.key('deadline')}
                  {...form.getInputProps('deadline')}
                />
                <Select
                  label="Inmobiliaria"
                  required
                  searchable
                  placeholder={agencies.isPending ? 'Cargando...' : 'Seleccione'}
                  nothingFoundMessage="Ninguna inmobiliaria coincide"
                  data={agencyOptions}
                  disabled={agencies.isPending}
                  description={
                    noAgencies ? (
                      <>
                        Aún no hay inmobiliarias.{' '}
                        <Anchor component={Link} to={paths.newSettingsRecord('inmobiliarias')} size="xs">
                          Crear una inmobiliaria
                        </Anchor>
                      </>
                    ) : agencies.isError ? (
                      `No se pudieron cargar las inmobiliarias: ${errorMessage(agencies.error)}`
                    ) : undefined
                  }
                  key={form.key('realEstateAgencyId')}
                  {...form.getInputProps('realEstateAgencyId')}
                />
                <NumberInput
                  label="Total de Unidades"
                  description={
                    (current && totalUnitsNote(form.values.totalUnits, current.inventoryUnits)) ?? 'Opcional'
                  }
                  descriptionProps={{ 'data-testid': 'total-units-note' }}
                  min={0}
                  max={100_000}
                  allowDecimal={false}
                  allowNegative={false}
                  thousandSeparator="."
                  decimalSeparator=","
                  key={form.key('totalUnits')}
                  {...form.getInputProps('totalUnits')}
                />
                <TextInput
                  label="Cuotas"
                  readOnly
                  variant="filled"
                  description="Se calcula a partir de la fecha de entrega"
                  placeholder="Ingrese la fecha de entrega"
                  value={installmentsShown(form.values.deadline, today)}
                />
              </SimpleGrid>
              <ImagePicker
                label="Logo"
                currentUrl={current?.logoUrl ?? null}
                value={logo}
                onChange={setLogo}
                removeLabel="Quitar logo"
                hint={IMAGE_HINT}
                fallback={<IconBuildingSkyscraper size={36} aria-hidden />}
                disabled={saving}
              />
            </Stack>
          </Paper>
          <FormActions cancelTo={backTo} saving={saving} />
        </Stack>
      </form>
      {current ? <ProjectStockSection projectId={current.id} /> : null}
    </>
  );
}
