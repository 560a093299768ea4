import { useMemo } from 'react';
import { formatSvcTable, svcRowAt } from '../../model/time';
import type { ControllerKind } from '../../model/time/types';
import { useSimMs, useTimeline } from './context';

/** Why the address is still `<pending>`, when the model has no sentence for it. */
function pendingWhy(controller: ControllerKind): string {
  switch (controller) {
    case 'none':
      return 'No load-balancer controller runs in this cluster: nothing ever writes status.loadBalancer.ingress.';
    case 'cloud':
      return 'The cloud-controller-manager has not written status.loadBalancer.ingress yet: until then nothing has an address to dial.';
    case 'metallb-l2':
      return 'MetalLB has not assigned an address from its IPAddressPool yet.';
  }
}

/**
 * `kubectl get svc <name>` live beside the drawing, as of the simulated time: EXTERNAL-IP
 * `<pending>` until the model publishes the ingress, AGE counted in simulated time. A change of
 * address is announced politely; the ticking AGE is not.
 */
export function KubectlBox() {
  const timeline = useTimeline();
  const simMs = useSimMs();
  const row = useMemo(() => svcRowAt(timeline, simMs), [timeline, simMs]);
  const name = timeline.service.split('/')[1] ?? timeline.service;
  const namespace = timeline.service.split('/')[0] ?? 'default';
  const ip = row['EXTERNAL-IP'];
  const pending = ip === '<pending>';
  const controller = timeline.settings.provisioning.controller;
  // The model says why nothing will ever publish an address (controller none).
  const never = timeline.entries.find(
    (e) => e.kind === 'note' && e.at === 0 && e.actor === 'api-server',
  );
  return (
    <div
      className="kubectl-box"
      data-testid="kubectl-svc"
      data-state={pending ? 'pending' : 'published'}
      data-external-ip={ip}
    >
      <p className="kubectl-prompt mono">
        <span aria-hidden="true">$ </span>kubectl get svc {name}
        {namespace !== 'default' ? ` -n ${namespace}` : ''}
      </p>
      <pre className="kubectl-out mono" tabIndex={0} aria-label={`kubectl get svc ${name} output`}>
        {formatSvcTable([row])}
      </pre>
      <p className="visually-hidden" aria-live="polite" data-testid="kubectl-announce">
        {pending ? `EXTERNAL-IP of ${name} is pending.` : `EXTERNAL-IP of ${name} is now ${ip}.`}
      </p>
      {pending && (
        <p className="kubectl-why" data-testid="pending-why">
          {controller === 'none' && never ? never.message : pendingWhy(controller)}
        </p>
      )}
    </div>
  );
}
