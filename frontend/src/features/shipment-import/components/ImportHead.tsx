import type { Ref } from 'react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { ShipmentImport } from '@/gen/logistics/v1/shipment_service_pb';
import { formatDateTime } from '@/utils/format';
import { stateLabel, stateTone } from '../utils/import-text';

/** An import's file name and state, and who began it when. */
export function ImportHead({ imp, headingRef }: { imp: ShipmentImport; headingRef?: Ref<HTMLHeadingElement> }) {
  return (
    <div className="import-head">
      <div className="import-head-title">
        <h2 id="import-panel-heading" ref={headingRef} tabIndex={-1}>
          {imp.fileName}
        </h2>
        <span className={`status-pill tone-${stateTone(imp.state)}`}>{stateLabel(imp.state)}</span>
      </div>
      <p className="muted import-head-meta">
        {imp.createdBy ? `By ${imp.createdBy}` : 'Import'}
        {imp.createTime ? `, ${formatDateTime(timestampDate(imp.createTime))}` : ''}
      </p>
    </div>
  );
}
