import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { Article } from '@app/shared';
import { Icon } from '../components/icons';
import { PageHeader } from '../components/PageHeader';
import { articleIdOf, articleQueryKey, CreateMessages } from '../components/create/articleQuery';
import { CreateArticleForm } from '../components/create/CreateArticleForm';
import { GeneratedContentModal } from '../components/create/GeneratedContentModal';
import { WritingTips } from '../components/create/WritingTips';
import { useCan } from '../hooks/useWorkspaces';
import '../styles/create.css';

/**
 * docs/product.md (Create): the Create Article form with tips; `?articleId=` opens the generated-content
 * modal for that article (a new one after Create & Schedule, or an existing one).
 */
export default function CreatePage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const articleId = params.get('articleId')?.trim() || null;
  // The article whose modal was closed: the form behind it is blank again, so the page says where it went.
  const [closed, setClosed] = useState<Article | null>(null);
  // A reviewer opens an article here read-only, and creates nothing (docs/product.md, Workspaces).
  const may = useCan();

  const onCreated = (article: Article) => {
    const id = articleIdOf(article);
    queryClient.setQueryData(articleQueryKey(id), article);
    setClosed(null);
    setParams({ articleId: id });
  };

  const closeModal = () => {
    setClosed((articleId && queryClient.getQueryData<Article>(articleQueryKey(articleId))) || null);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('articleId');
        return next;
      },
      { replace: true },
    );
  };

  return (
    <div className="page">
      <PageHeader
        title="Create Article"
        description="Start from a title and a topic; review the drafts, add an image, then schedule."
        actions={
          may('sheets.import') ? (
            <button type="button" className="btn btn--secondary" onClick={() => navigate('/sheets-import')}>
              Import Articles from Google Sheets
            </button>
          ) : undefined
        }
      />
      {closed && !articleId && (
        <div className="create-saved" role="status">
          <p className="create-saved__text">
            <strong>“{closed.title}”</strong> is saved
            {closed.generation?.status === 'pending' ? ' and still being drafted' : ''}: it is on the{' '}
            <Link to="/schedule">Schedule page</Link>, where you schedule or publish it.{' '}
            <Link to={`/create?articleId=${encodeURIComponent(articleIdOf(closed))}`}>Open it again</Link>
          </p>
          <button
            type="button"
            className="icon-button create-saved__dismiss"
            aria-label="Dismiss"
            onClick={() => setClosed(null)}
          >
            <Icon name="close" size={16} />
          </button>
        </div>
      )}
      {may('articles.create') ? (
        <div className="create-layout">
          <CreateArticleForm onCreated={onCreated} />
          <WritingTips />
        </div>
      ) : (
        <section className="card">
          <p className="card-description">{CreateMessages.createNotAllowed}</p>
        </section>
      )}
      {articleId && (
        <GeneratedContentModal
          key={articleId}
          articleId={articleId}
          onClose={closeModal}
          // A version's own Schedule action opens its Schedule modal there (pages/Schedule.tsx).
          onFinish={(version) =>
            navigate(
              version ? `/schedule?${new URLSearchParams({ articleId, schedule: version }).toString()}` : '/schedule',
            )
          }
        />
      )}
    </div>
  );
}
