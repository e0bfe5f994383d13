// SPDX-License-Identifier: Apache-2.0

import Foundation

/// An Optimizely datafile, the JSON the SDK bundles in the app and downloads
/// at boot and periodically after, read as the SDK reads it: experiments and
/// their mutually exclusive groups, audiences, feature flags and rollouts.
/// Fields the decisions do not use are ignored.
public struct OptimizelyDatafile: Decodable, Sendable {
  /// The datafile format's version ("4" today); required, as the SDKs require it.
  public var version: String
  public var revision: String?
  public var experiments: [Experiment]
  public var groups: [Group]
  public var audiences: [Audience]
  /// Audiences whose conditions are a JSON tree rather than a string; they
  /// replace the plain audience of the same id, as in the SDK.
  public var typedAudiences: [Audience]
  public var featureFlags: [FeatureFlag]
  public var rollouts: [Rollout]

  public struct Experiment: Decodable, Sendable {
    public var id: String
    public var key: String
    /// Only "Running" experiments bucket anybody.
    public var status: String
    public var variations: [Variation]
    public var trafficAllocation: [TrafficAllocation]
    public var audienceIds: [String]
    /// Overrides `audienceIds` when present: a tree of audience ids.
    public var audienceConditions: AttributeValue?
    /// Whitelisted users: user id to variation key.
    public var forcedVariations: [String: String]
    /// Set for an experiment of a group with the "random" policy.
    public var groupId: String?

    enum CodingKeys: String, CodingKey {
      case id, key, status, variations, trafficAllocation, audienceIds, audienceConditions, forcedVariations, groupId
    }

    public init(
      id: String, key: String, status: String, variations: [Variation], trafficAllocation: [TrafficAllocation],
      audienceIds: [String] = [], audienceConditions: AttributeValue? = nil, forcedVariations: [String: String] = [:],
      groupId: String? = nil
    ) {
      self.id = id
      self.key = key
      self.status = status
      self.variations = variations
      self.trafficAllocation = trafficAllocation
      self.audienceIds = audienceIds
      self.audienceConditions = audienceConditions
      self.forcedVariations = forcedVariations
      self.groupId = groupId
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(String.self, forKey: .id)
      key = try container.decode(String.self, forKey: .key)
      status = try container.decodeIfPresent(String.self, forKey: .status) ?? "Running"
      variations = try container.decodeIfPresent([Variation].self, forKey: .variations) ?? []
      trafficAllocation = try container.decodeIfPresent([TrafficAllocation].self, forKey: .trafficAllocation) ?? []
      audienceIds = try container.decodeIfPresent([String].self, forKey: .audienceIds) ?? []
      audienceConditions = try container.decodeIfPresent(AttributeValue.self, forKey: .audienceConditions)
      forcedVariations = try container.decodeIfPresent([String: String].self, forKey: .forcedVariations) ?? [:]
      groupId = try container.decodeIfPresent(String.self, forKey: .groupId)
    }

    public func variation(id: String) -> Variation? { variations.first { $0.id == id } }
    public func variation(key: String) -> Variation? { variations.first { $0.key == key } }
  }

  public struct Variation: Decodable, Sendable, Hashable {
    public var id: String
    public var key: String
    public var featureEnabled: Bool?
    public var variables: [VariableUsage]?

    public init(id: String, key: String, featureEnabled: Bool? = nil, variables: [VariableUsage]? = nil) {
      self.id = id
      self.key = key
      self.featureEnabled = featureEnabled
      self.variables = variables
    }
  }

  public struct VariableUsage: Decodable, Sendable, Hashable {
    public var id: String
    public var value: String
  }

  /// One range of buckets: a bucket below `endOfRange` (and at or above the
  /// previous entry's) goes to `entityId`.
  public struct TrafficAllocation: Decodable, Sendable, Hashable {
    public var entityId: String
    public var endOfRange: Int

    public init(entityId: String, endOfRange: Int) {
      self.entityId = entityId
      self.endOfRange = endOfRange
    }
  }

  public struct Group: Decodable, Sendable {
    public var id: String
    public var policy: String
    public var trafficAllocation: [TrafficAllocation]
    public var experiments: [Experiment]
  }

  public struct Audience: Decodable, Sendable {
    public var id: String
    public var name: String?
    /// The condition tree; a datafile may hold it as a JSON string.
    public var conditions: AttributeValue

    enum CodingKeys: String, CodingKey { case id, name, conditions }

    public init(id: String, name: String? = nil, conditions: AttributeValue) {
      self.id = id
      self.name = name
      self.conditions = conditions
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(String.self, forKey: .id)
      name = try container.decodeIfPresent(String.self, forKey: .name)
      let raw = try container.decode(AttributeValue.self, forKey: .conditions)
      if case .string(let text) = raw {
        conditions = (try? AttributeValue(json: Data(text.utf8))) ?? .null
      } else {
        conditions = raw
      }
    }
  }

  public struct FeatureFlag: Decodable, Sendable {
    public var id: String
    public var key: String
    public var experimentIds: [String]
    public var rolloutId: String?
    public var variables: [Variable]

    public init(id: String, key: String, experimentIds: [String] = [], rolloutId: String?, variables: [Variable] = []) {
      self.id = id
      self.key = key
      self.experimentIds = experimentIds
      self.rolloutId = rolloutId
      self.variables = variables
    }
  }

  public struct Variable: Decodable, Sendable {
    public var id: String
    public var key: String
    public var type: String
    public var defaultValue: String
  }

  public struct Rollout: Decodable, Sendable {
    public var id: String
    /// The targeting rules in order; the last is "Everyone Else".
    public var experiments: [Experiment]

    public init(id: String, experiments: [Experiment]) {
      self.id = id
      self.experiments = experiments
    }
  }

  enum CodingKeys: String, CodingKey {
    case version, revision, experiments, groups, audiences, typedAudiences, featureFlags, rollouts
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(String.self, forKey: .version)
    revision = try container.decodeIfPresent(String.self, forKey: .revision)
    experiments = try container.decodeIfPresent([Experiment].self, forKey: .experiments) ?? []
    groups = try container.decodeIfPresent([Group].self, forKey: .groups) ?? []
    audiences = try container.decodeIfPresent([Audience].self, forKey: .audiences) ?? []
    typedAudiences = try container.decodeIfPresent([Audience].self, forKey: .typedAudiences) ?? []
    featureFlags = try container.decodeIfPresent([FeatureFlag].self, forKey: .featureFlags) ?? []
    rollouts = try container.decodeIfPresent([Rollout].self, forKey: .rollouts) ?? []
  }

  /// A datafile built in code, e.g. by a simulation of a dashboard's plan.
  public init(
    revision: String? = nil, experiments: [Experiment], audiences: [Audience] = [], groups: [Group] = [],
    featureFlags: [FeatureFlag] = [], rollouts: [Rollout] = []
  ) {
    version = "4"
    self.revision = revision
    self.experiments = experiments
    self.groups = groups
    self.audiences = audiences
    typedAudiences = []
    self.featureFlags = featureFlags
    self.rollouts = rollouts
  }

  /// Reads a datafile, naming what is wrong when it is not one.
  public init(json: Data) throws(BucketingError) {
    do {
      self = try JSONDecoder().decode(OptimizelyDatafile.self, from: json)
    } catch {
      throw .unreadable(format: "Optimizely datafile", reason: BucketingError.describe(error))
    }
  }

  /// Every experiment, those of groups included, in the datafile's order.
  public var allExperiments: [Experiment] {
    experiments + groups.flatMap { group in
      group.experiments.map { experiment in
        var experiment = experiment
        experiment.groupId = group.policy == "random" ? group.id : nil
        return experiment
      }
    }
  }
}
