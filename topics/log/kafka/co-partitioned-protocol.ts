import type { PartitionAssigner } from 'kafkajs';
import { AssignerProtocol } from './kafkajs.js';
import { assignCoPartitioned } from '../co-partitioned-assignor.js';
import type { GroupMember } from '../log.js';

/**
 * The KafkaJS side of the co-partitioned assignor: member metadata carries each member's
 * advertised endpoint and the partitions it owns now (so the leader can be sticky, whoever the
 * leader is), and the leader applies `assignCoPartitioned` to every input topic alike.
 */

/** Name of the group protocol; every member of the history group must speak it. */
export const CO_PARTITIONED_PROTOCOL = 'logbook-co-partitioned';

interface MemberUserData {
  readonly endpoint: string;
  readonly owned: readonly number[];
}

function decodeUserData(buffer: Buffer | null | undefined): MemberUserData {
  try {
    const parsed = JSON.parse((buffer ?? Buffer.alloc(0)).toString('utf8')) as Partial<MemberUserData>;
    return { endpoint: String(parsed.endpoint ?? ''), owned: Array.isArray(parsed.owned) ? parsed.owned.map(Number) : [] };
  } catch {
    return { endpoint: '', owned: [] };
  }
}

/** Builds the assigner for one member; `self` reports what this member advertises right now. */
export function coPartitionedAssigner(self: () => MemberUserData): PartitionAssigner {
  return ({ cluster }) => ({
    name: CO_PARTITIONED_PROTOCOL,
    version: 1,
    protocol({ topics }) {
      return {
        name: CO_PARTITIONED_PROTOCOL,
        metadata: AssignerProtocol.MemberMetadata.encode({ version: 1, topics, userData: Buffer.from(JSON.stringify(self())) }),
      };
    },
    async assign({ members, topics }) {
      const counts = topics.map((t) => cluster.findTopicPartitionMetadata(t).length);
      // Co-partitioned topics must agree; if they do not, only the common range can be co-owned.
      const partitionCount = Math.min(...counts);
      const plan = assignCoPartitioned(
        members.map((m) => {
          const metadata = AssignerProtocol.MemberMetadata.decode(m.memberMetadata);
          return { memberId: m.memberId, owned: decodeUserData(metadata?.userData).owned };
        }),
        partitionCount,
      );
      return members.map((m) => ({
        memberId: m.memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: 1,
          assignment: Object.fromEntries(topics.map((t) => [t, plan.get(m.memberId) ?? []])),
          userData: Buffer.alloc(0),
        }),
      }));
    },
  });
}

/** Decodes a described group member (from `admin.describeGroups`) into what other nodes need. */
export function describeMember(
  member: { memberId: string; memberMetadata: Buffer; memberAssignment: Buffer },
  firstTopic: string,
): GroupMember {
  const metadata = member.memberMetadata.length > 0 ? AssignerProtocol.MemberMetadata.decode(member.memberMetadata) : null;
  const assignment = member.memberAssignment.length > 0 ? AssignerProtocol.MemberAssignment.decode(member.memberAssignment) : null;
  return {
    memberId: member.memberId,
    endpoint: decodeUserData(metadata?.userData).endpoint,
    partitions: [...(assignment?.assignment[firstTopic] ?? [])].sort((a, b) => a - b),
  };
}
