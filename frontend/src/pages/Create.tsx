import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { Article } from '@app/shared';
import { PageHeader } from '../components/PageHeader';
import { articleIdOf, articleQueryKey } from '../components/create/articleQuery';
import { CreateArticleForm } from '../components/create/CreateArticleForm';
import { GeneratedContentModal } from '../components/create/GeneratedContentModal';
import { WritingTips } from '../components/create/WritingTips';
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

  const onCreated = (article: Article) => {
    const id = articleIdOf(article);
    queryClient.setQueryData(articleQueryKey(id), article);
    setParams({ articleId: id });
  };

  const closeModal = () => {
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
          <button type="button" className="btn btn--secondary" onClick={() => navigate('/sheets-import')}>
            Import Articles from Google Sheets
          </button>
        }
      />
      <div className="create-layout">
        <CreateArticleForm onCreated={onCreated} />
        <WritingTips />
      </div>
      {articleId && (
        <GeneratedContentModal
          key={articleId}
          articleId={articleId}
          onClose={closeModal}
          onFinish={() => navigate('/schedule')}
        />
      )}
    </div>
  );
}
