import type { ReadStream } from 'node:fs';
import { SOCKET_EVENTS } from '@shared/events';
import type { QuickMessage } from '@shared/schemas/quick-messages';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { TenantCatalog } from '../../core/tenant-catalog';
import { TenantFileStore, safeDisplayName, safeMimeType } from '../../core/tenant-file-store';
import type { AppDeps } from '../../deps';
import type { UploadedFile } from '../../http/multipart';
import { quickMessagePolicy } from './quick-messages.policy';
import { presentQuickMessage, type QuickMessageRow } from './quick-messages.presenter';
import type { CreateQuickMessageInput, UpdateQuickMessageInput } from './quick-messages.schema';

const MEDIA_FOLDER = 'fast-replies';

type StoredMedia = Pick<QuickMessageRow, 'mediaPath' | 'mediaName' | 'mediaType'>;

export interface QuickMessageFile {
  stream: ReadStream;
  size: number;
  name: string;
  type: string;
}

/**
 * Quick messages (mensagens rápidas): a key typed after a slash, a text and/or one file, and
 * whether an audio file goes out as a recorded voice note. Files live in the tenant's private
 * upload folder; the database row is the source of truth, so a file is written before its row
 * commits (and removed if the write fails) and an old file is removed only after the commit.
 */
export class QuickMessagesService {
  private readonly catalog: TenantCatalog<QuickMessageRow, QuickMessage>;
  private readonly files: TenantFileStore;

  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'config' | 'logger'>) {
    this.files = new TenantFileStore(deps.config.dataDir);
    this.catalog = new TenantCatalog(deps, {
      table: 'fast_replies',
      writable: ['key', 'message', 'sendAsVoice', 'active', 'userId', 'mediaPath', 'mediaName', 'mediaType'],
      orderBy: 'lower(key), id',
      policy: quickMessagePolicy,
      uniqueIndexes: { fast_replies_tenant_key_uq: { code: 'ERR_FAST_REPLY_EXISTS', field: 'key' } },
      events: { update: SOCKET_EVENTS.fastReplyUpdate, delete: SOCKET_EVENTS.fastReplyDelete, key: 'fastReply' },
      present: async (rows) => rows.map(presentQuickMessage),
    });
  }

  list(auth: AuthContext): Promise<QuickMessage[]> {
    return this.catalog.list(auth);
  }

  async create(auth: AuthContext, input: CreateQuickMessageInput, file?: UploadedFile): Promise<QuickMessage> {
    // Checked before anything touches the disk.
    quickMessagePolicy.authorize(auth, 'create');
    const message = input.message ?? '';
    const sendAsVoice = input.sendAsVoice ?? false;
    assertSendable(message, file ? safeMimeType(file.mimetype) : null, sendAsVoice);
    const media = file ? await this.store(auth.tenantId, file) : null;
    try {
      return await this.catalog.create(auth, {
        key: input.key,
        message,
        sendAsVoice,
        active: input.active,
        userId: auth.userId,
        ...media,
      });
    } catch (err) {
      if (media) await this.discard(auth.tenantId, media.mediaPath);
      throw err;
    }
  }

  /**
   * A new file replaces the stored one; `removeMedia` drops it. The rules apply to the result:
   * text or file required, and a voice note needs an audio file (when the file stops being
   * audio and the request does not say otherwise, the voice flag is turned off).
   */
  async update(auth: AuthContext, id: number, input: UpdateQuickMessageInput, file?: UploadedFile): Promise<QuickMessage> {
    const { removeMedia, ...fields } = input;
    if (!file && !removeMedia && Object.values(fields).every((v) => v === undefined)) {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'body', message: 'informe ao menos um campo ou um arquivo para alterar' }],
      });
    }
    // Filled inside the transaction: the new file (stored only once the caller is authorised)
    // and the old one to remove after the commit.
    const media: { stored: StoredMedia | null; replaced: string | null } = { stored: null, replaced: null };
    try {
      const dto = await this.catalog.update(auth, id, fields, {
        prepare: async (_tx, current) => {
          const keepsMedia = !file && !removeMedia && current.mediaPath !== null;
          const mediaType = file ? safeMimeType(file.mimetype) : keepsMedia ? current.mediaType : null;
          const message = fields.message ?? current.message;
          let sendAsVoice = fields.sendAsVoice ?? current.sendAsVoice;
          if (fields.sendAsVoice === undefined && sendAsVoice && !isAudio(mediaType)) sendAsVoice = false;
          assertSendable(message, mediaType, sendAsVoice);
          if (keepsMedia) return { sendAsVoice };
          if (file) media.stored = await this.store(current.tenantId, file);
          media.replaced = current.mediaPath;
          return { sendAsVoice, ...(media.stored ?? { mediaPath: null, mediaName: null, mediaType: null }) };
        },
      });
      await this.discard(auth.tenantId, media.replaced);
      return dto;
    } catch (err) {
      await this.discard(auth.tenantId, media.stored?.mediaPath ?? null);
      throw err;
    }
  }

  async remove(auth: AuthContext, id: number): Promise<void> {
    const row = await this.catalog.remove(auth, id);
    if (row.mediaPath) await this.discard(row.tenantId, row.mediaPath);
  }

  /** The file of one quick message, for any user of its tenant. */
  async openFile(auth: AuthContext, id: number): Promise<QuickMessageFile> {
    const row = await this.catalog.get(auth, id);
    const opened = row.mediaPath ? await this.files.open(row.tenantId, row.mediaPath) : null;
    if (!opened) throw new AppError('ERR_NOT_FOUND', { message: 'Esta mensagem rápida não possui arquivo.' });
    return { ...opened, name: row.mediaName ?? 'arquivo', type: row.mediaType ?? 'application/octet-stream' };
  }

  private async store(tenantId: number, file: UploadedFile): Promise<StoredMedia> {
    const mediaPath = await this.files.save(tenantId, MEDIA_FOLDER, file);
    return { mediaPath, mediaName: safeDisplayName(file.originalname), mediaType: safeMimeType(file.mimetype) };
  }

  /** A file left behind is only wasted disk, never a wrong answer: log and go on. */
  private async discard(tenantId: number, mediaPath: string | null): Promise<void> {
    if (!mediaPath) return;
    try {
      await this.files.remove(tenantId, mediaPath);
    } catch (err) {
      this.deps.logger.warn({ err, tenantId, mediaPath }, 'could not remove a quick-message file');
    }
  }
}

const isAudio = (type: string | null | undefined): boolean => Boolean(type?.startsWith('audio/'));

function assertSendable(message: string, mediaType: string | null, sendAsVoice: boolean): void {
  if (message.trim().length === 0 && !mediaType) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'message', message: 'informe a mensagem ou anexe um arquivo' }] });
  }
  if (sendAsVoice && !isAudio(mediaType)) {
    throw new AppError('ERR_VALIDATION', {
      fields: [{ path: 'sendAsVoice', message: 'enviar como áudio gravado exige um arquivo de áudio' }],
    });
  }
}
