import { Icon } from '@blueprintjs/core';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { dragPosition, isComplete, keyboardPosition, percent } from './slider-captcha.logic';

interface SliderCaptchaProps {
  verified: boolean;
  onVerifiedChange(verified: boolean): void;
  /** Changing it puts the slider back at the start (after a failed login, for instance). */
  resetKey?: number;
}

const HANDLE_WIDTH = 44;

/**
 * Slider captcha of the login screen (spec section 2 and 5): drag the handle to the end of the
 * track. The handle is a real `role="slider"`, so keyboard users complete it with the arrow keys
 * or End. Completing it starts the server's challenge (use-captcha-answer.ts): the login is
 * refused without its solved, single-use answer, beside the server's login rate limits.
 */
export function SliderCaptcha({ verified, onVerifiedChange, resetKey = 0 }: SliderCaptchaProps) {
  const { t } = useTranslation();
  const trackRef = useRef<HTMLDivElement>(null);
  const [max, setMax] = useState(0);
  const [position, setPosition] = useState(0);
  const [dragging, setDragging] = useState(false);
  const drag = useRef<{ startX: number; startPosition: number } | null>(null);

  useLayoutEffect(() => {
    const track = trackRef.current;
    if (!track) return;
    const measure = () => setMax(Math.max(0, track.clientWidth - HANDLE_WIDTH));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(track);
    return () => observer.disconnect();
  }, []);

  // Only a new resetKey resets the slider, whatever the identity of the callback.
  const onVerifiedChangeRef = useRef(onVerifiedChange);
  onVerifiedChangeRef.current = onVerifiedChange;
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    setPosition(0);
    onVerifiedChangeRef.current(false);
  }, [resetKey]);

  const settle = useCallback(
    (next: number) => {
      if (isComplete(next, max)) {
        setPosition(max);
        onVerifiedChange(true);
      } else {
        setPosition(next);
      }
    },
    [max, onVerifiedChange],
  );

  const shown = verified ? max : position;

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (verified) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startX: event.clientX, startPosition: position };
    setDragging(true);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    setPosition(dragPosition(drag.current.startPosition, drag.current.startX, event.clientX, max));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    const next = dragPosition(drag.current.startPosition, drag.current.startX, event.clientX, max);
    drag.current = null;
    setDragging(false);
    // Let go before the end: the handle slides back, as on every slider captcha.
    if (isComplete(next, max)) settle(next);
    else setPosition(0);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (verified) return;
    const next = keyboardPosition(event.key, position, max);
    if (next === null) return;
    event.preventDefault();
    settle(next);
  };

  return (
    <div
      className={`slider-captcha${verified ? ' is-verified' : ''}${dragging ? ' is-dragging' : ''}`}
      data-testid="slider-captcha"
    >
      <div className="slider-captcha-track" ref={trackRef}>
        <div className="slider-captcha-fill" style={{ width: shown + HANDLE_WIDTH / 2 }} />
        <span className="slider-captcha-label" aria-hidden="true">
          {verified ? t('auth.captcha.verified') : t('auth.captcha.instruction')}
        </span>
        <div
          className="slider-captcha-handle"
          role="slider"
          tabIndex={verified ? -1 : 0}
          aria-label={t('auth.captcha.ariaLabel')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={verified ? 100 : percent(position, max)}
          aria-valuetext={verified ? t('auth.captcha.verified') : t('auth.captcha.instruction')}
          aria-disabled={verified}
          style={{ transform: `translateX(${shown}px)`, width: HANDLE_WIDTH }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => {
            drag.current = null;
            setDragging(false);
            setPosition(0);
          }}
          onKeyDown={onKeyDown}
          data-testid="slider-captcha-handle"
        >
          <Icon icon={verified ? 'tick' : 'double-chevron-right'} />
        </div>
      </div>
    </div>
  );
}
