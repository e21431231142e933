import type { PublicUser } from '@app/shared';
import { api } from './client';

export const adminApi = {
  listUsers: () => api.get<{ users: PublicUser[] }>('/admin/users'),
  setUserStatus: (id: string, isActive: boolean) =>
    api.patch<{ user: PublicUser; message?: string }>(`/admin/users/${encodeURIComponent(id)}/status`, { isActive }),
};
