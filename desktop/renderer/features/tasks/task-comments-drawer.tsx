import { Button, Drawer, NonIdealState, Spinner, TextArea } from '@blueprintjs/core';
import { TASK_COMMENT_MAX } from '@shared/schemas/tasks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useAddTaskCommentMutation,
  useDeleteTaskCommentMutation,
  useListTaskCommentsQuery,
  type TaskDto,
} from '../../api/tasks.api';
import { formatCell } from '../../app/table/cell-format';
import { useAppSelector } from '../../app/store-hooks';

/** The comments of one task: author, text and date; add one, delete your own. */
export function TaskCommentsDrawer({ task, onClose }: { task: TaskDto; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const me = useAppSelector((s) => s.session.userId);
  const comments = useListTaskCommentsQuery(task.id);
  const [addComment, adding] = useAddTaskCommentMutation();
  const [deleteComment] = useDeleteTaskCommentMutation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  const send = async () => {
    if (!text.trim()) {
      setError(t('tasks.commentRequired'));
      return;
    }
    const result = await addComment({ taskId: task.id, text });
    if (!('error' in result)) {
      setText('');
      setError(null);
    }
  };

  return (
    <Drawer isOpen onClose={onClose} title={t('tasks.commentsTitle', { name: task.name })} icon="comment" size="400px">
      <div className="task-comments" data-testid="task-comments">
        {task.description ? <p className="task-comments-description">{task.description}</p> : null}
        {comments.isLoading ? <Spinner size={24} /> : null}
        {comments.data && comments.data.length === 0 ? <NonIdealState icon="comment" title={t('tasks.noComments')} /> : null}
        <ul className="task-comment-list">
          {(comments.data ?? []).map((comment) => (
            <li key={comment.id} className="task-comment" data-testid="task-comment">
              <div className="task-comment-head">
                <strong>{comment.userName ?? t('tasks.removedUser')}</strong>
                <span className="task-comment-date">
                  {formatCell('datetime', comment.createdAt, { language: i18n.language })}
                </span>
                {comment.userId === me ? (
                  <Button
                    variant="minimal"
                    size="small"
                    icon="trash"
                    intent="danger"
                    aria-label={t('tasks.deleteComment')}
                    title={t('tasks.deleteComment')}
                    onClick={() => void deleteComment({ taskId: task.id, commentId: comment.id })}
                    data-testid="task-comment-delete"
                  />
                ) : null}
              </div>
              <p className="task-comment-text">{comment.text}</p>
            </li>
          ))}
        </ul>
        <TextArea
          fill
          rows={3}
          value={text}
          maxLength={TASK_COMMENT_MAX}
          placeholder={t('tasks.commentPlaceholder')}
          onChange={(event) => setText(event.currentTarget.value)}
          intent={error ? 'danger' : 'none'}
          data-testid="task-comment-input"
        />
        {error ? (
          <p className="task-comment-error" role="alert">
            {error}
          </p>
        ) : null}
        <Button
          intent="primary"
          icon="send-message"
          text={t('tasks.addComment')}
          loading={adding.isLoading}
          onClick={() => void send()}
          data-testid="task-comment-add"
        />
      </div>
    </Drawer>
  );
}
