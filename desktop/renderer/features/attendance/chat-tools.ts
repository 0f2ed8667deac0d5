import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Message } from '../../api/messages.api';
import { toggleForwardSelection } from './composer-rules';

/**
 * State the thread, the composer and the search share for the open ticket: the message being
 * replied to, the forward selection (checkbox mode, at most 10) and the message to jump to.
 * Everything resets when the ticket changes.
 */
export interface ChatTools {
  replyTo: Message | null;
  setReplyTo: (message: Message | null) => void;
  selecting: boolean;
  selected: number[];
  /** Key of the last refusal of the selection ('Permitido no máximo 10 mensagens.'). */
  selectionError: string | null;
  startSelecting: (first?: number) => void;
  toggleSelected: (id: number) => void;
  stopSelecting: () => void;
  highlightId: number | null;
  /** Scrolls the thread to a message (loading older pages if needed) and highlights it. */
  jumpTo: (id: number | null) => void;
  /** Counts jumps: a second jump to the same message scrolls to it again. */
  jumpSeq: number;
  searchOpen: boolean;
  setSearchOpen: (open: boolean) => void;
}

export function useChatTools(ticketId: number): ChatTools {
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [selectionError, setSelectionError] = useState<string | null>(null);
  const [highlightId, setHighlightId] = useState<number | null>(null);
  const [jumpSeq, setJumpSeq] = useState(0);
  const jumpTo = useCallback((id: number | null) => {
    setHighlightId(id);
    setJumpSeq((n) => n + 1);
  }, []);
  const [searchOpen, setSearchOpen] = useState(false);

  useEffect(() => {
    setReplyTo(null);
    setSelecting(false);
    setSelected([]);
    setSelectionError(null);
    setHighlightId(null);
    setSearchOpen(false);
  }, [ticketId]);

  const toggleSelected = useCallback((id: number) => {
    setSelected((current) => {
      const next = toggleForwardSelection(current, id);
      setSelectionError(next.error);
      return next.selected;
    });
  }, []);

  return useMemo(
    () => ({
      replyTo,
      setReplyTo,
      selecting,
      selected,
      selectionError,
      startSelecting: (first?: number) => {
        setSelecting(true);
        setSelectionError(null);
        setSelected(first === undefined ? [] : [first]);
      },
      toggleSelected,
      stopSelecting: () => {
        setSelecting(false);
        setSelected([]);
        setSelectionError(null);
      },
      highlightId,
      jumpTo,
      jumpSeq,
      searchOpen,
      setSearchOpen,
    }),
    [replyTo, selecting, selected, selectionError, toggleSelected, highlightId, jumpTo, jumpSeq, searchOpen],
  );
}
