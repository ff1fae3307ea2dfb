import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PermissionsResponse } from '../../../shared/schemas/permissions';
import type {
  Agency,
  AgencyBody,
  AgencyOption,
  AgencyPage,
  DefaultAssigneesBody,
  PaymentFlowSettings,
  Project,
  ProjectBody,
  ProjectPage,
  SaleFlowSettings,
  SettingsUser,
  UserCreateBody,
  UserPage,
  UserUpdateBody,
} from '../../../shared/schemas/settings';
import { api } from '../../lib/api';
import { sessionQueryKey } from '../../lib/session';
import { dashboardQueryKey } from '../dashboard/api';
import { reservationKeys } from '../reservations/api';
import { userOptionsQueryKey } from '../users/api';

/** Configuración (/api/settings): agencies, projects, users and the flows' defaults. */

export interface SettingsListQuery {
  page: number;
  pageSize: number;
  search?: string;
}

export const settingsKeys = {
  all: ['settings'] as const,
  agencies: ['settings', 'agencies'] as const,
  agencyList: (query: SettingsListQuery) => ['settings', 'agencies', 'list', query] as const,
  agencyOptions: ['settings', 'agencies', 'options'] as const,
  agency: (id: string) => ['settings', 'agencies', 'detail', id] as const,
  projects: ['settings', 'projects'] as const,
  projectList: (query: SettingsListQuery) => ['settings', 'projects', 'list', query] as const,
  project: (id: string) => ['settings', 'projects', 'detail', id] as const,
  users: ['settings', 'users'] as const,
  userList: (query: SettingsListQuery) => ['settings', 'users', 'list', query] as const,
  user: (id: string) => ['settings', 'users', 'detail', id] as const,
  saleFlow: ['settings', 'sale-flow'] as const,
  paymentFlows: ['settings', 'payment-flows'] as const,
  permissions: ['settings', 'permissions'] as const,
};

const BASE = '/api/settings';

// ---------------------------------------------------------------------------------------------
// Inmobiliarias

export function useAgencies(query: SettingsListQuery) {
  return useQuery({
    queryKey: settingsKeys.agencyList(query),
    queryFn: ({ signal }) => api<AgencyPage>(`${BASE}/agencies`, { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The project form's agency select. */
export function useAgencyOptions() {
  return useQuery({
    queryKey: settingsKeys.agencyOptions,
    queryFn: async ({ signal }) =>
      (await api<{ agencies: AgencyOption[] }>(`${BASE}/agencies/options`, { signal })).agencies,
  });
}

export function useAgency(id: string | undefined) {
  return useQuery({
    queryKey: settingsKeys.agency(id ?? ''),
    queryFn: async ({ signal }) =>
      (await api<{ agency: Agency }>(`${BASE}/agencies/${id}`, { signal })).agency,
    enabled: Boolean(id),
    staleTime: 0,
  });
}

/** 'Verificar cuenta' of an agency's account (issue 53): another payments user or an administrator. */
export function useVerifyAgencyAccount(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (version: number) =>
      (
        await api<{ agency: Agency }>(`${BASE}/agencies/${id}/account/verify`, {
          method: 'POST',
          body: { version },
        })
      ).agency,
    onSuccess: (agency) => {
      queryClient.setQueryData(settingsKeys.agency(id), agency);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.agencies });
    },
  });
}

export function useSaveAgency(id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AgencyBody & { version?: number }) =>
      (
        await api<{ agency: Agency }>(id ? `${BASE}/agencies/${id}` : `${BASE}/agencies`, {
          method: id ? 'PUT' : 'POST',
          body,
        })
      ).agency,
    onSuccess: () => {
      // Projects show their agency's name.
      void queryClient.invalidateQueries({ queryKey: settingsKeys.agencies });
      void queryClient.invalidateQueries({ queryKey: settingsKeys.projects });
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Proyectos

export function useProjects(query: SettingsListQuery) {
  return useQuery({
    queryKey: settingsKeys.projectList(query),
    queryFn: ({ signal }) => api<ProjectPage>(`${BASE}/projects`, { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useProject(id: string | undefined) {
  return useQuery({
    queryKey: settingsKeys.project(id ?? ''),
    queryFn: async ({ signal }) =>
      (await api<{ project: Project }>(`${BASE}/projects/${id}`, { signal })).project,
    enabled: Boolean(id),
    staleTime: 0,
  });
}

/** After any project change: the lists, the reservation form's projects and the dashboard. */
function useProjectsChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: settingsKeys.projects });
    void queryClient.invalidateQueries({ queryKey: reservationKeys.formOptions });
    void queryClient.invalidateQueries({ queryKey: dashboardQueryKey });
  };
}

export function useSaveProject() {
  const changed = useProjectsChanged();
  return useMutation({
    mutationFn: async ({ id, body }: { id: string | undefined; body: ProjectBody & { version?: number } }) =>
      (
        await api<{ project: Project }>(id ? `${BASE}/projects/${id}` : `${BASE}/projects`, {
          method: id ? 'PUT' : 'POST',
          body,
        })
      ).project,
    onSuccess: changed,
  });
}

/** Uploads a new logo (the file's bytes), or removes it (null). */
export function useProjectLogo() {
  const changed = useProjectsChanged();
  return useMutation({
    mutationFn: async ({ id, file }: { id: string; file: File | null }) =>
      (
        await api<{ project: Project }>(`${BASE}/projects/${id}/logo`, {
          method: file ? 'PUT' : 'DELETE',
          body: file ?? undefined,
        })
      ).project,
    onSuccess: changed,
  });
}

// ---------------------------------------------------------------------------------------------
// Usuarios

export function useSettingsUsers(query: SettingsListQuery) {
  return useQuery({
    queryKey: settingsKeys.userList(query),
    queryFn: ({ signal }) => api<UserPage>(`${BASE}/users`, { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useSettingsUser(id: string | undefined) {
  return useQuery({
    queryKey: settingsKeys.user(id ?? ''),
    queryFn: async ({ signal }) =>
      (await api<{ user: SettingsUser }>(`${BASE}/users/${id}`, { signal })).user,
    enabled: Boolean(id),
    staleTime: 0,
  });
}

/**
 * After any user change: the settings lists, the pickers of every screen (active users), the
 * sellers of the sale flow, and the signed-in user (their own name or avatar may have changed).
 */
function useUsersChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: settingsKeys.users });
    void queryClient.invalidateQueries({ queryKey: settingsKeys.saleFlow });
    void queryClient.invalidateQueries({ queryKey: userOptionsQueryKey });
    void queryClient.invalidateQueries({ queryKey: reservationKeys.formOptions });
    void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  };
}

export function useSaveUser() {
  const changed = useUsersChanged();
  return useMutation({
    mutationFn: async (
      change: { id: undefined; body: UserCreateBody } | { id: string; body: UserUpdateBody },
    ) =>
      (
        await api<{ user: SettingsUser }>(change.id ? `${BASE}/users/${change.id}` : `${BASE}/users`, {
          method: change.id ? 'PUT' : 'POST',
          body: change.body,
        })
      ).user,
    onSuccess: changed,
  });
}

export function useUserAvatar() {
  const changed = useUsersChanged();
  return useMutation({
    mutationFn: async ({ id, file }: { id: string; file: File | null }) =>
      (
        await api<{ user: SettingsUser }>(`${BASE}/users/${id}/avatar`, {
          method: file ? 'PUT' : 'DELETE',
          body: file ?? undefined,
        })
      ).user,
    onSuccess: changed,
  });
}

/** 'Desactivar usuario' / 'Reactivar usuario'. */
export function useSetUserActive() {
  const changed = useUsersChanged();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, active }: { id: string; active: boolean }) =>
      (
        await api<{ user: SettingsUser }>(`${BASE}/users/${id}/${active ? 'reactivate' : 'deactivate'}`, {
          method: 'POST',
        })
      ).user,
    onSuccess: (user) => {
      queryClient.setQueryData(settingsKeys.user(user.id), user);
      changed();
    },
  });
}

export function useChangeUserPassword() {
  return useMutation({
    mutationFn: ({ id, password }: { id: string; password: string }) =>
      api<void>(`${BASE}/users/${id}/password`, { method: 'PUT', body: { password } }),
  });
}

// ---------------------------------------------------------------------------------------------
// Flows' defaults

export function useSaleFlowSettings() {
  return useQuery({
    queryKey: settingsKeys.saleFlow,
    queryFn: ({ signal }) => api<SaleFlowSettings>(`${BASE}/sale-flow`, { signal }),
  });
}

export function usePaymentFlowSettings() {
  return useQuery({
    queryKey: settingsKeys.paymentFlows,
    queryFn: ({ signal }) => api<PaymentFlowSettings>(`${BASE}/payment-flows`, { signal }),
  });
}

export function useSetDefaultSeller() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string | null) =>
      (
        await api<{ defaultSellerId: string | null }>(`${BASE}/default-seller`, {
          method: 'PUT',
          body: { userId },
        })
      ).defaultSellerId,
    onSuccess: (defaultSellerId) => {
      queryClient.setQueryData<SaleFlowSettings>(settingsKeys.saleFlow, (old) =>
        old ? { ...old, defaultSellerId } : old,
      );
      // The new reservation form preselects the default seller.
      void queryClient.invalidateQueries({ queryKey: reservationKeys.formOptions });
    },
  });
}

/** Puts a task's new default assignees into a cached workflow. */
function withAssignees<W extends { stages: { tasks: { id: string; defaultAssigneeIds: string[] }[] }[] }>(
  workflow: W,
  taskId: string,
  defaultAssigneeIds: string[],
): W {
  return {
    ...workflow,
    stages: workflow.stages.map((stage) => ({
      ...stage,
      tasks: stage.tasks.map((task) => (task.id === taskId ? { ...task, defaultAssigneeIds } : task)),
    })),
  };
}

/** PUT …/workflow-tasks/{taskId}/default-assignees ([] = 'Quitar Asignación'). */
export function useSetDefaultAssignees() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ taskId, userIds }: { taskId: string } & DefaultAssigneesBody) =>
      (
        await api<{ task: { id: string; defaultAssigneeIds: string[] } }>(
          `${BASE}/workflow-tasks/${taskId}/default-assignees`,
          { method: 'PUT', body: { userIds } },
        )
      ).task,
    onSuccess: (task) => {
      queryClient.setQueryData<SaleFlowSettings>(settingsKeys.saleFlow, (old) =>
        old ? { ...old, workflow: withAssignees(old.workflow, task.id, task.defaultAssigneeIds) } : old,
      );
      queryClient.setQueryData<PaymentFlowSettings>(settingsKeys.paymentFlows, (old) =>
        old
          ? {
              workflows: old.workflows.map((workflow) =>
                withAssignees(workflow, task.id, task.defaultAssigneeIds),
              ),
            }
          : old,
      );
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Permisos (decision 0061): who holds each action, as the server says.

export function usePermissions() {
  return useQuery({
    queryKey: settingsKeys.permissions,
    queryFn: ({ signal }) => api<PermissionsResponse>(`${BASE}/permissions`, { signal }),
  });
}

export function useSetPermission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, userType, granted }: { action: string; userType: string; granted: boolean }) =>
      api<PermissionsResponse>(
        `${BASE}/permissions/${encodeURIComponent(action)}/${encodeURIComponent(userType)}`,
        { method: 'PUT', body: { granted } },
      ),
    onSuccess: (data) => {
      queryClient.setQueryData(settingsKeys.permissions, data);
      // The administrator's own actions may follow (their menus render from the session).
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}
