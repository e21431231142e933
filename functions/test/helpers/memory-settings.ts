import type { SecretStore, SecretValues, SettingRecord, SettingStore } from '../../src/domain/ports.js';

/** SettingStore in memory, with the DynamoDB store's conditions. */
export class MemorySettingStore implements SettingStore {
  readonly records = new Map<string, SettingRecord>();

  async list(userId: string) {
    return [...this.records.entries()]
      .filter(([k]) => k.startsWith(`${userId}/`))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, r]) => ({ ...r }));
  }
  async get(userId: string, key: string) {
    const r = this.records.get(`${userId}/${key}`);
    return r && { ...r };
  }
  async put(userId: string, record: SettingRecord) {
    this.records.set(`${userId}/${record.key}`, { ...record });
  }
  async delete(userId: string, key: string) {
    return this.records.delete(`${userId}/${key}`);
  }
  async migrate(
    userId: string,
    key: string,
    updatedAt: string,
    changes: Pick<SettingRecord, 'storedIn' | 'value'>,
    from?: SettingRecord['storedIn'],
  ) {
    const r = this.records.get(`${userId}/${key}`);
    if (!r || r.storedIn !== from || r.updatedAt !== updatedAt) return false;
    const moved = { ...r, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
    if (changes.storedIn === 'secret') delete moved.value;
    this.records.set(`${userId}/${key}`, moved);
    return true;
  }
}

/** SecretStore in memory: one entry per owner, compare-and-set on a version number; `legacy` holds per-key values of before. */
export class MemorySecretStore implements SecretStore {
  readonly owners = new Map<string, { values: Record<string, string>; version: number }>();
  readonly legacy = new Map<string, string>();

  async read(userId: string): Promise<SecretValues> {
    const owner = this.owners.get(userId);
    return owner ? { values: { ...owner.values }, version: String(owner.version) } : { values: {}, version: undefined };
  }
  async write(userId: string, values: Readonly<Record<string, string>>, version: string | undefined) {
    const owner = this.owners.get(userId);
    if ((owner ? String(owner.version) : undefined) !== version) return undefined;
    const next = (owner?.version ?? 0) + 1;
    this.owners.set(userId, { values: { ...values }, version: next });
    return String(next);
  }
  async readLegacy(userId: string, key: string) {
    return this.legacy.get(`${userId}/${key}`);
  }
  async deleteLegacy(userId: string, key: string) {
    this.legacy.delete(`${userId}/${key}`);
  }
}
