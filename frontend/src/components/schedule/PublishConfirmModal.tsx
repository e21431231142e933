import { useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { httpUrlOrNull, type Article, type VersionId } from '@app/shared';
import { channelById, channelFor, versionNames } from '../../channels/registry';
import type { RegisteredChannel } from '../../channels/types';
import { ApiError, errorText } from '../../api/client';
import { Modal } from '../Modal';
import { BusyButton } from '../Spinner';
import { articleIdOf } from '../create/articleQuery';
import { ScheduleMessages } from './messages';

export interface PublishResult {
  platform: VersionId;
  /** The channel it was published on. */
  channel: string;
  message: string;
  /** The post's address on the channel, when the server gave an http(s) one. */
  link: string | null;
  /** The article as it is now. */
  article: Article;
}

interface PublishConfirmModalProps {
  article: Article;
  platform: VersionId;
  /** A second channel of the version (channels/also.tsx); absent: the version's own channel. */
  channel?: string;
  onClose: () => void;
  onPublished: (result: PublishResult) => void;
  /** A failed attempt may have changed the article (its lastError): the lists should be refreshed. */
  onFailed?: () => void;
}

interface Failure {
  text: string;
  code?: string;
}

/** Where a failure can be put right, for the errors the server marks with a code. */
function remedy(
  code: string | undefined,
  articleId: string,
  channel: RegisteredChannel,
): { to: string; label: string } | null {
  // The channel's own codes (a connection to make or renew) are put right in Settings.
  const settings = code !== undefined ? channel.remedies[code] : undefined;
  if (settings) return { to: '/settings', label: settings };
  switch (code) {
    case 'no_content':
    case 'offline_draft_note': // the editor highlights the note's line
      return { to: `/create?articleId=${encodeURIComponent(articleId)}`, label: 'Open the editor' };
    default:
      return null;
  }
}

/**
 * The failure with its remedy as a link, in one text: where the server's message already names the
 * step ("Connect … in Settings first"), those words become the link; otherwise the step
 * follows as a sentence of its own. Appending it every time read the step twice.
 */
function FailureText({
  text,
  fix,
  onFollow,
}: {
  text: string;
  fix: { to: string; label: string } | null;
  onFollow: () => void;
}) {
  if (!fix) return <>{text}</>;
  const at = text.toLowerCase().indexOf(fix.label.toLowerCase());
  if (at >= 0) {
    const end = at + fix.label.length;
    return (
      <>
        {text.slice(0, at)}
        <Link to={fix.to} onClick={onFollow}>
          {text.slice(at, end)}
        </Link>
        {text.slice(end)}
      </>
    );
  }
  return (
    <>
      {/[.!?]$/.test(text) ? text : `${text}.`}{' '}
      <Link to={fix.to} onClick={onFollow}>
        {fix.label}
      </Link>
      .
    </>
  );
}

/**
 * The publish-confirmation modal (docs/product.md, Schedule): "Publish to <channel> now?" with the article's title,
 * then the channel's own publish call (channels/registry.ts). A failure is
 * shown here, where the person acted, and stays until they retry or close.
 */
export function PublishConfirmModal({
  article,
  platform,
  channel: channelId,
  onClose,
  onPublished,
  onFailed,
}: PublishConfirmModalProps) {
  const id = articleIdOf(article);
  const other = channelId !== undefined ? channelById(channelId) : undefined;
  const channel = other ?? channelFor(platform);
  const service = other ? other.label : versionNames(platform).service;
  const confirmRef = useRef<HTMLButtonElement>(null);

  const publish = useMutation({
    mutationFn: async (): Promise<PublishResult> => {
      const { message, link, article: updated } = await channel.publish(id);
      return { platform, channel: channel.id, message, link: httpUrlOrNull(link), article: updated };
    },
    onSuccess: onPublished,
    onError: () => onFailed?.(),
  });
  const busy = publish.isPending;
  const failure: Failure | null = publish.error && {
    text: ScheduleMessages.publishError(
      platform,
      errorText(publish.error, channel.texts.publishFailed),
      channel.ownVersion ? channel.versionNoun : undefined,
    ),
    code: publish.error instanceof ApiError ? publish.error.code : undefined,
  };
  const confirm = () => {
    if (!busy) publish.mutate();
  };

  const fix = failure ? remedy(failure.code, id, channel) : null;

  return (
    <Modal
      title={`Publish to ${service} now?`}
      subtitle={article.title}
      onClose={onClose}
      size="sm"
      closeDisabled={busy}
      initialFocus={() => confirmRef.current}
    >
      <p className="publish-confirm__text">{channel.texts.publishConfirm(article)}</p>
      {failure && (
        <div className="alert alert--error publish-confirm__error" role="alert">
          <FailureText text={failure.text} fix={fix} onFollow={onClose} />
        </div>
      )}
      <div className="modal__footer">
        <button type="button" className="btn btn--secondary" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <BusyButton
          ref={confirmRef}
          type="button"
          className="btn btn--primary"
          onClick={confirm}
          disabled={busy}
          busy={busy}
          label={failure ? 'Try again' : 'Confirm'}
          busyLabel="Publishing..."
        />
      </div>
    </Modal>
  );
}
