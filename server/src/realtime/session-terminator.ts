import type { Server as SocketServer } from 'socket.io';
import { ERROR_CODES } from '@shared/errors';
import { SOCKET_EVENTS, type InvalidTokenPayload } from '@shared/events';

/**
 * Revoking a session must also end its live sockets: an access token is checked only at the
 * handshake, so without this a logged-out or compromised session would keep receiving events.
 * Sockets join `session:<sid>` and `user:<id>`; with the Redis adapter this reaches every process.
 */
export interface SessionTerminator {
  endSession(sessionId: string): void;
  endUserSessions(userId: number): void;
  /** Every socket of a tenant (its deactivation): told ERR_TENANT_INACTIVE, then cut. */
  endTenantSessions(tenantId: number): void;
}

/** Bound to the Socket.IO server once the hub exists (the HTTP app is built before it). */
export class SocketSessionTerminator implements SessionTerminator {
  private io?: SocketServer;

  bind(io: SocketServer): void {
    this.io = io;
  }

  endSession(sessionId: string): void {
    this.end(`session:${sessionId}`);
  }

  endUserSessions(userId: number): void {
    this.end(`user:${userId}`);
  }

  endTenantSessions(tenantId: number): void {
    this.end(`tenant:${tenantId}`, 'ERR_TENANT_INACTIVE');
  }

  private end(room: string, error: 'ERR_INVALID_TOKEN' | 'ERR_TENANT_INACTIVE' = 'ERR_INVALID_TOKEN'): void {
    if (!this.io) return;
    const payload: InvalidTokenPayload = { error, message: ERROR_CODES[error].message };
    this.io.in(room).emit(SOCKET_EVENTS.invalidToken, payload);
    this.io.in(room).disconnectSockets(true);
  }
}
