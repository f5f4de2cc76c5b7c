import { describe, expect, it, vi } from 'vitest';
import { createAssistant, fetchPage, sendPayment } from '../../examples/payments/agent.js';
import { createShadowSupportDesk, refundPayment } from '../../examples/support/agent.js';
import { createTravelAgent, ledger } from '../../examples/travel/agent.js';
import { loadTrajectory, runTrajectory } from '../../src/index.js';

describe('the zero-trust trajectory', () => {
  it('replays with the page read, the payment blocked by taint from the page, and the payment never run', async () => {
    const page = vi.spyOn(fetchPage, 'run');
    const payment = vi.spyOn(sendPayment, 'run');
    const { result } = await runTrajectory({
      file: 'trajectories/zero-trust.yaml',
      agent: createAssistant,
      mode: 'replay',
    });

    expect(page).toHaveBeenCalledTimes(1);
    expect(result.toolCalls[0]).toMatchObject({ name: 'fetch_page', outcome: 'ok' });
    expect(payment).not.toHaveBeenCalled();
    expect(result.blocked).toEqual([
      expect.objectContaining({ tool: 'send_payment', rule: 'taint', source: 'fetch_page' }),
    ]);
    expect(result).toMatchObject({ tainted: true, taintSource: 'fetch_page' });
    expect(loadTrajectory('trajectories/zero-trust.yaml').summary).toMatchObject({
      tainted: true,
      taintSource: 'fetch_page',
    });
    page.mockRestore();
    payment.mockRestore();
  });
});

describe('the shadow trajectory', () => {
  it('plans the refund for review and never runs it', async () => {
    const refund = vi.spyOn(refundPayment, 'run');
    const { result } = await runTrajectory({
      file: 'trajectories/shadow-refund.yaml',
      agent: createShadowSupportDesk,
      mode: 'replay',
    });
    expect(refund).not.toHaveBeenCalled();
    expect(result.plannedEffects).toEqual([
      { id: 'toolu_s2_1', tool: 'refund_payment', input: { orderId: 'A-1002', amount: 15 } },
    ]);
    refund.mockRestore();
  });
});

describe('the compensated booking', () => {
  it('replays the bookings, then compensation cancels them, the flight first', async () => {
    const replayed = async (runTools?: 'all') => {
      ledger.length = 0;
      let agent: ReturnType<typeof createTravelAgent> | undefined;
      const { result, served } = await runTrajectory({
        file: 'trajectories/compensated-booking.yaml',
        agent: (transport) => (agent = createTravelAgent(transport)),
        mode: 'replay',
        ...(runTools === undefined ? {} : { runTools }),
      });
      return { result, served, agent: agent! };
    };
    // A booking has an effect someone declared a way to undo: a default replay serves it, books nothing.
    const safe = await replayed();
    expect(safe.served!.map((call) => call.tool)).toEqual(['book_room', 'book_flight']);
    expect(ledger).toEqual([]);
    // Asked to run every tool, the replay books again, and compensation undoes it, the flight first.
    const { result, agent } = await replayed('all');
    const report = await agent.compensate(result);
    expect(ledger).toEqual([
      'booked room R-12',
      'booked flight LH-400',
      'cancelled flight LH-400',
      'cancelled room R-12',
    ]);
    expect(report.failed).toEqual([]);
  });
});
