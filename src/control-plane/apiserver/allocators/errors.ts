// The allocators' errors (ipallocator / portallocator ErrAllocated, ErrNotInRange, ErrFull). Their messages are
// the real ones; the Service REST layer wraps them into field errors or internal errors.

export const AllocationErrorReason = { Allocated: 'Allocated', NotInRange: 'NotInRange', Full: 'Full' } as const;
export type AllocationErrorReason = (typeof AllocationErrorReason)[keyof typeof AllocationErrorReason];

export class AllocationError extends Error {
  constructor(
    readonly reason: AllocationErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'AllocationError';
  }
}
